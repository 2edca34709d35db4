import { existsSync } from 'node:fs'
import { describe, it } from 'vitest'

/** A program some tests drive from outside Node (a browser, a server), installed by CI's image. */
export interface OutsideProgram {
  /** What it is called in messages, e.g. `'Chromium'`. */
  readonly name: string
  /** Where it must be, absolute, e.g. `'/usr/bin/chromium'`. */
  readonly path: string
  /** How to install it, e.g. `'apt-get install chromium'`. */
  readonly install: string
}

/** What to do about a program: run the tests, fail them (CI), or skip them (locally). */
export type ProgramStatus =
  | { readonly kind: 'present' }
  | { readonly kind: 'missing'; readonly inCi: boolean; readonly message: string }

/**
 * Whether `program` is installed, and when it is not, what to say. `env.CI` set (to anything but
 * `''`, `'0'` or `'false'`) means the tests run in CI, where a missing program is a failure: an
 * image without it would otherwise skip its tests and stay green.
 */
export function programStatus(
  program: OutsideProgram,
  env: Readonly<Record<string, string | undefined>> = process.env,
  exists: (path: string) => boolean = existsSync,
): ProgramStatus {
  if (exists(program.path)) return { kind: 'present' }
  const inCi = env.CI !== undefined && !['', '0', 'false'].includes(env.CI)
  const message = inCi
    ? `${program.name} is not at ${program.path}, and CI must run these tests: install it in the image (${program.install}).`
    : `skipped: ${program.name} is not at ${program.path} (${program.install}); CI fails instead of skipping.`
  return { kind: 'missing', inCi, message }
}

/**
 * `describe(name, body)` for tests that need `program`: run as usual when it is installed; in CI
 * without it, one failing test that names the program and how to install it; locally without it,
 * skipped, with one line on stderr saying why.
 */
export function describeWithProgram(program: OutsideProgram, name: string, body: () => void): void {
  const status = programStatus(program)
  if (status.kind === 'present') {
    describe(name, body)
  } else if (status.inCi) {
    describe(name, () => {
      it(`needs ${program.name}`, () => {
        throw new Error(status.message)
      })
    })
  } else {
    console.warn(`${name}: ${status.message}`)
    describe.skip(`${name} (${status.message})`, body)
  }
}
