import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { referenceNamespaces } from '../../scripts/api-report-namespaces.js'

// A report as API Extractor writes it for an entry that re-exports the root as `core`, whose
// `types` namespace is the types entry.
const FULL = `## API Report File for "vitest-causal-replay"

\`\`\`ts

import { z } from 'zod';

// @public
function calledTool(name: string): Predicate;

declare namespace core {
    export {
        calledTool,
        Predicate,
        Trajectory,
        types
    }
}

// @public
export function contrastive(factual: Trajectory, options: ContrastiveOptions): Promise<Result>;

// Warning: (ae-forgotten-export) The symbol "ContrastiveOptionsSchema" needs to be exported by the entry point attribution.d.ts
//
// @public
export type ContrastiveOptions = z.input<typeof ContrastiveOptionsSchema>;

// @public
type Predicate = (trajectory: Trajectory) => boolean;

// @public
const RarelyOptionsSchema: z.ZodObject<{}>;

// @public
export interface Result {
    readonly step: Step;
    readonly trajectory: number;
}

// @public
type Step = {
    name: string;
};

// @public
type Trajectory = {
    steps: Step[];
};

declare namespace types {
    export {
        Step
    }
}

// (No @packageDocumentation comment for this package)

\`\`\`
`

const NAMESPACES = new Map([
  ['core', 'vitest-causal-replay'],
  ['types', 'vitest-causal-replay/types'],
])

describe('referenceNamespaces', () => {
  const report = referenceNamespaces(FULL, [{ name: 'core', importName: 'vitest-causal-replay' }], NAMESPACES)

  it('references a namespace of another entry in one line instead of expanding it', () => {
    expect(report).toContain("export type * as core from 'vitest-causal-replay';")
    expect(report).not.toContain('declare namespace')
    expect(report).not.toContain('function calledTool')
    expect(report).not.toContain('type Predicate')
  })

  it("imports the names its own signatures use from the entry that declares them, a nested namespace's from its entry", () => {
    expect(report).toContain(
      "import { z } from 'zod';\nimport type { Trajectory } from 'vitest-causal-replay';\nimport type { Step } from 'vitest-causal-replay/types';\n",
    )
    // `trajectory: number` is a property name, not a use of the type.
    expect(report).not.toMatch(/^type Trajectory|^type Step/m)
  })

  it("keeps the entry's own names with their warnings, and leaves out what only the namespace reached", () => {
    expect(report).toContain('export function contrastive(')
    expect(report).toContain('export interface Result {')
    expect(report).toContain('(ae-forgotten-export) The symbol "ContrastiveOptionsSchema"')
    expect(report).not.toContain('RarelyOptionsSchema')
    expect(report).toContain('// (No @packageDocumentation comment for this package)\n\n```\n')
  })

  it('leaves a report without such namespaces as it is', () => {
    expect(referenceNamespaces(FULL, [], NAMESPACES)).toBe(FULL)
  })
})

describe('the committed API reports', () => {
  const dir = join(import.meta.dirname, '../../api')
  const reports = readdirSync(dir).filter((file) => file.endsWith('.api.md'))

  it('expand no namespace and hold no path of the machine that wrote them', () => {
    expect(reports.length).toBeGreaterThan(0)
    for (const file of reports) {
      const text = readFileSync(join(dir, file), 'utf8')
      expect(text, file).not.toMatch(/^declare namespace/m)
      expect(text, file).not.toMatch(/import\("|[A-Za-z]:\\|\/(work|home|tmp|Users)\//)
      expect(text, file).not.toContain('\r')
    }
  })
})
