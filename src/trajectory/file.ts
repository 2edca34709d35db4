import { InvalidTrajectoryError } from '../errors.js'
import { parseJsonFile, writeJsonFile } from '../files/json-file.js'
import { TrajectorySchema, type Trajectory } from './schema.js'

/**
 * Reads and validates a trajectory file. A missing file, bad JSON or a field that does not match
 * the schema throws an {@link InvalidTrajectoryError} that names the file and the field.
 */
export async function readTrajectory(file: string): Promise<Trajectory> {
  return parseJsonFile(file, TrajectorySchema, 'trajectory', InvalidTrajectoryError)
}

/**
 * Writes a trajectory as JSON. The value is validated first and written to a temporary file that
 * is renamed into place, so an invalid trajectory or a crash mid-write never clobbers a good file.
 */
export async function writeTrajectory(file: string, trajectory: Trajectory): Promise<void> {
  await writeJsonFile(file, TrajectorySchema, trajectory, 'trajectory', InvalidTrajectoryError)
}
