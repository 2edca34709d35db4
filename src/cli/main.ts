#!/usr/bin/env node
// The `causal-replay` command (package.json `bin`): see usage.ts. The work is in run.ts, which
// returns the exit code instead of exiting, so it is testable in-process.
import { runCli } from './run.js'

process.exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr })
