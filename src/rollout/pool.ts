/**
 * Runs at most `concurrency` tasks at a time (after Vitest's `limitConcurrency`). Tasks start in the
 * order they were submitted, which is what keeps budget charges deterministic: with a limit of M
 * rollouts, exactly rollouts 0..M−1 start whatever the concurrency.
 */
export function limitConcurrency(concurrency: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0
  // A FIFO of starters; an array with a moving head avoids O(n) shifts on long runs.
  const waiting: Array<() => void> = []
  let head = 0

  const next = () => {
    running--
    if (head < waiting.length) {
      const start = waiting[head]
      waiting[head++] = noop
      start?.()
    }
    if (head === waiting.length) {
      waiting.length = 0
      head = 0
    }
  }

  return <T>(task: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const start = () => {
        running++
        // A task that throws synchronously must still release its slot.
        let promise: Promise<T>
        try {
          promise = task()
        } catch (error) {
          promise = Promise.reject(error)
        }
        // Two reactions rather than then().finally(): finally allocates two more promises per task.
        promise.then(
          (value) => {
            resolve(value)
            next()
          },
          (error: unknown) => {
            reject(error)
            next()
          },
        )
      }
      if (running < concurrency) start()
      else waiting.push(start)
    })
}

function noop(): void {}
