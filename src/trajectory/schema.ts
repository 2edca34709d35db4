import { z } from 'zod'
import { nonJsonProblem, type Json, type JsonObject } from '../json.js'

/** The version tag of every trajectory file; bumped when the shape changes incompatibly. */
export const TRAJECTORY_SCHEMA = 'vitest-causal-replay/trajectory@1'

/**
 * Any JSON value, checked in place: what it parses is the value given, not a copy. A copy made by
 * zod's records would drop own keys named `"__proto__"` (zod skips them, so that assigning one
 * cannot set the copy's prototype), and a value read back must be the value written.
 */
export const JsonSchema: z.ZodType<Json> = z.custom<Json>().superRefine((value, ctx) => {
  const problem = nonJsonProblem(value)
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: `not a JSON value: ${problem}` })
})

/** A JSON object (a step's meta), checked in place as {@link JsonSchema} is. */
export const JsonObjectSchema: z.ZodType<JsonObject> = z.custom<JsonObject>().superRefine((value, ctx) => {
  const problem =
    value === null || typeof value !== 'object' || Array.isArray(value)
      ? `${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`}, not an object`
      : nonJsonProblem(value)
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: `not a JSON object: ${problem}` })
})

/** Where a recorded value came from in the run that produced it. */
export const ObservationSourceSchema = z.enum(['live', 'recorded', 'replaced'])

/** A tool call and its result (an observation), attached to the step before it. */
export const ObservationSchema = z.object({
  tool: z.string(),
  args: JsonSchema,
  /** Absent when the tool returned `undefined` or threw. */
  result: JsonSchema.optional(),
  /** The message of the error the tool threw, if it threw (the agent saw the throw). */
  error: z.string().optional(),
  source: ObservationSourceSchema,
})
export type Observation = z.infer<typeof ObservationSchema>

/** How a step's action was obtained in this run. */
export const StepSourceSchema = z.enum([
  'policy', // drawn from the step's own policy
  'held', // answered from the recording (replay)
  'forced', // forceAction
  'edited', // drawn from the policy on an edited context (editContext)
  'swapped', // drawn from another policy (swapPolicy)
])
export type StepSource = z.infer<typeof StepSourceSchema>

/** One decision: a call to a stochastic policy, and the tool calls that followed it. */
export const StepSchema = z.object({
  index: z.number().int().nonnegative(),
  name: z.string(),
  action: JsonSchema,
  /** What the step decided from (absent when the agent gave none). */
  context: JsonSchema.optional(),
  /** {@link contextDigest} of `context`; null without a context. */
  contextDigest: z.string().nullable(),
  source: StepSourceSchema,
  /** A held step whose name or context digest differed from the recording. */
  diverged: z.boolean().optional(),
  /** Money the policy call cost (adapters: tokens × price table). Absent when nothing was spent (a cassette hit). */
  costUsd: z.number().nonnegative().optional(),
  /**
   * Only for a cacheable step while a cassette is in use: `hit` when the action came from the
   * cassette (no policy call, nothing spent), `miss` when the policy was called.
   */
  cassette: z.enum(['hit', 'miss']).optional(),
  /** A cassette hit only: what the call would have cost (its `costUsd` for the stored action). */
  savedUsd: z.number().nonnegative().optional(),
  /** Extra facts an adapter records (token usage, model id, finish reason). */
  meta: JsonObjectSchema.optional(),
  observations: z.array(ObservationSchema),
})
export type Step = z.infer<typeof StepSchema>

/** Why a rollout did not finish normally. */
export const RolloutErrorKindSchema = z.enum(['threw', 'timeout', 'max-steps', 'aborted', 'not-json'])
export type RolloutErrorKind = z.infer<typeof RolloutErrorKindSchema>

export const RolloutErrorSchema = z.object({
  kind: RolloutErrorKindSchema,
  name: z.string(),
  message: z.string(),
})
export type RolloutError = z.infer<typeof RolloutErrorSchema>

/** One run of an agent: input, steps, output, or the error that ended it. */
export const TrajectorySchema = z.object({
  schema: z.literal(TRAJECTORY_SCHEMA),
  agent: z.string(),
  input: JsonSchema,
  /** The run seed and rollout index: `record(scenario, { seed, rollout })` reproduces this run. */
  seed: z.number().int(),
  rollout: z.number().int().nonnegative(),
  /**
   * The dataset case this run ran (`agent.over(dataset)`): the dataset's name and the case's id.
   * Absent for a run of one input, and in files written before datasets.
   */
  case: z.object({ dataset: z.string(), id: z.string() }).optional(),
  /** A label of the intervention this run was replayed under; absent for plain rollouts. */
  intervention: z.string().optional(),
  /** Tool calls made before the first step. */
  preamble: z.array(ObservationSchema),
  steps: z.array(StepSchema),
  /** What `run` returned; absent when it returned undefined or the rollout failed. */
  output: JsonSchema.optional(),
  /** Set when the rollout threw, timed out, looped or was aborted: an error outcome, never scored. */
  error: RolloutErrorSchema.optional(),
  /** Held steps reached in this run and how many of them matched the recording (replay only). */
  replay: z
    .object({
      heldSteps: z.number().int().nonnegative(),
      matchedSteps: z.number().int().nonnegative(),
    })
    .optional(),
  /** Sum of the steps' `costUsd`. */
  costUsd: z.number().nonnegative().optional(),
})
/**
 * One run of an agent, as {@link TrajectorySchema} reads it. `I` and `O` are the agent's input and
 * output types (default: any JSON value): a predicate on an `Agent<I, O>` sees `input: I` and
 * `output: O | undefined`. Only the static types differ; every run's input and output are JSON.
 */
export type Trajectory<I = Json, O = Json> = Omit<TrajectoryData, 'input' | 'output'> & {
  input: I
  /** What `run` returned; absent when it returned undefined or the rollout failed. */
  output?: O | undefined
}
/** A trajectory as its schema parses it, before {@link Trajectory} types its input and output. */
export type TrajectoryData = z.infer<typeof TrajectorySchema>
/** Which dataset case a run ran: the dataset's name and the case's id. */
export type CaseRef = NonNullable<TrajectoryData['case']>
