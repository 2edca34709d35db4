// defineDataset: cases from an array or a file (JSON, JSONL, CSV), ids given or derived from the
// content, and errors that name the dataset, the file, the case (position, id, line) and the field.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { defineDatasetIn } from '../../../src/dataset/define-dataset.js'
import { InvalidDatasetError, InvalidOptionError } from '../../../src/errors.js'

const dir = mkdtempSync(join(tmpdir(), 'datasets-'))

function file(name: string, text: string): string {
  writeFileSync(join(dir, name), text)
  return name
}

function thrown(run: () => unknown): InvalidDatasetError {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidDatasetError)
    return error as InvalidDatasetError
  }
  throw new Error('expected an InvalidDatasetError')
}

describe('defineDataset: the cases', () => {
  it('takes an array: given ids kept, the others derived from the content (12 hex digits)', () => {
    const dataset = defineDatasetIn(dir, 'tickets', [
      { id: 'late', tags: ['billing'], input: { message: 'late' } },
      { input: { message: 'refund' } },
    ])
    expect(dataset.kind).toBe('dataset')
    expect(dataset.file).toBeUndefined()
    expect(dataset.cases[0]).toEqual({
      id: 'late',
      tags: ['billing'],
      input: { message: 'late' },
      position: 1,
    })
    expect(dataset.cases[1]?.id).toMatch(/^[0-9a-f]{12}$/)
    expect(dataset.cases[1]?.tags).toEqual([])
  })

  it('derives the same id from the same content, whatever the key order', () => {
    const a = defineDatasetIn(dir, 'a', [{ input: { x: 1, y: 2 }, note: 'n' }])
    const b = defineDatasetIn(dir, 'b', [{ note: 'n', input: { y: 2, x: 1 } }])
    expect(a.cases[0]?.id).toBe(b.cases[0]?.id)
  })

  it('reads JSON Lines, skipping blank lines, with each case’s line', () => {
    const name = file('cases.jsonl', '{"id":"a","input":"one"}\n\n{"id":"b","input":"two","tags":["x"]}\n')
    const dataset = defineDatasetIn(dir, 'lines', name)
    expect(dataset.file).toBe('cases.jsonl')
    expect(dataset.cases.map(({ id, line, input }) => ({ id, line, input }))).toEqual([
      { id: 'a', line: 1, input: 'one' },
      { id: 'b', line: 3, input: 'two' },
    ])
  })

  it('reads a JSON array, with the line each element starts on', () => {
    const name = file(
      'cases.json',
      '[\n  {"id": "a", "input": "[x]"},\n\n  {\n    "id": "b",\n    "input": {"n": [1, 2]}\n  }\n]\n',
    )
    const dataset = defineDatasetIn(dir, 'array', name)
    expect(dataset.cases.map(({ id, line }) => [id, line])).toEqual([
      ['a', 2],
      ['b', 4],
    ])
  })

  it('reads CSV through csv-parse: strings, empty cells absent, tags split on commas', () => {
    const name = file(
      'cases.csv',
      'id,message,tags\nlate,"My order is late",billing\n\n,"Refund,\nplease","billing, refund"\nlast,x,\n',
    )
    const dataset = defineDatasetIn(dir, 'csv', name, {
      input: (row: { message?: string }) => ({ message: row.message ?? '' }),
    })
    expect(dataset.cases[0]).toEqual({
      id: 'late',
      tags: ['billing'],
      input: { message: 'My order is late' },
      position: 1,
      line: 2,
    })
    expect(dataset.cases[1]?.tags).toEqual(['billing', 'refund'])
    expect(dataset.cases[1]?.id).toMatch(/^[0-9a-f]{12}$/)
    expect(dataset.cases[1]?.input).toEqual({ message: 'Refund,\nplease' })
    expect(dataset.cases.map((c) => c.line)).toEqual([2, 4, 6])
  })

  it('takes a file URL', () => {
    file('url.jsonl', '{"input":1}\n')
    const dataset = defineDatasetIn('/nowhere', 'url', pathToFileURL(join(dir, 'url.jsonl')))
    expect(dataset.cases).toHaveLength(1)
  })

  it('maps rows with `input`', () => {
    const dataset = defineDatasetIn(dir, 'mapped', [{ q: 'a' }, { q: 'b' }], {
      input: (row: { q?: string }) => ({ question: row.q ?? null }),
    })
    expect(dataset.cases.map((c) => c.input)).toEqual([{ question: 'a' }, { question: 'b' }])
  })
})

describe('defineDataset: errors name the dataset, the file, the case and the field', () => {
  it('a field of the wrong type: position, id, line, field', () => {
    const name = file('bad-tags.jsonl', '{"id":"a","input":1}\n{"id":"b","input":2,"tags":"x"}\n')
    const error = thrown(() => defineDatasetIn(dir, 'tickets', name))
    expect(error.message).toBe(
      'Dataset "tickets" (bad-tags.jsonl), case 2 (id "b", line 2): `tags` must be an array of non-empty strings, got a string "x".',
    )
    expect(error).toMatchObject({
      dataset: 'tickets',
      file: 'bad-tags.jsonl',
      position: 2,
      caseId: 'b',
      line: 2,
      field: 'tags',
    })
  })

  it('a nested field: its dotted path', () => {
    const error = thrown(() => defineDatasetIn(dir, 'tickets', [{ id: 'a', input: 1, tags: ['ok', ''] }]))
    expect(error.message).toBe(
      'Dataset "tickets", case 1 (id "a"): `tags[1]` must be a non-empty string, got a string "".',
    )
  })

  it('a missing input', () => {
    const error = thrown(() => defineDatasetIn(dir, 'tickets', [{ id: 'a', input: 1 }, { id: 'b' }]))
    expect(error.message).toMatch(
      /^Dataset "tickets", case 2 \(id "b"\): `input` is missing; give each case an `input`/,
    )
    expect(error.field).toBe('input')
  })

  it('a line that is not JSON, without quoting it', () => {
    const name = file('broken.jsonl', '{"input":1}\n{"input": secret-token}\n')
    const error = thrown(() => defineDatasetIn(dir, 'tickets', name))
    expect(error.message).toBe('Dataset "tickets" (broken.jsonl), line 2: the line is not valid JSON.')
    expect(error.message).not.toContain('secret')
  })

  it('a case that is not an object', () => {
    const name = file('numbers.json', '[\n  {"input": 1},\n  7\n]')
    const error = thrown(() => defineDatasetIn(dir, 'tickets', name))
    expect(error.message).toBe('Dataset "tickets" (numbers.json), case 2 (line 3): must be an object, got 7.')
  })

  it('a JSON file that is not an array', () => {
    const name = file('object.json', '{"cases": []}')
    expect(thrown(() => defineDatasetIn(dir, 'tickets', name)).message).toMatch(
      /^Dataset "tickets" \(object.json\): a .json dataset must be an array of cases/,
    )
  })

  it('a missing file, and a format it cannot read', () => {
    expect(thrown(() => defineDatasetIn(dir, 'tickets', 'missing.jsonl')).message).toBe(
      'Dataset "tickets" (missing.jsonl): the file does not exist.',
    )
    expect(thrown(() => defineDatasetIn(dir, 'tickets', 'cases.yaml')).message).toMatch(
      /cannot read a ".yaml" file; a dataset file is .json/,
    )
  })

  it('a CSV row with too many cells: its line', () => {
    const name = file('ragged.csv', 'id,input\na,one\nb,two,three\n')
    const error = thrown(() => defineDatasetIn(dir, 'tickets', name))
    expect(error.message).toBe(
      'Dataset "tickets" (ragged.csv), line 3: the CSV cannot be parsed: columns length is 2, got 3.',
    )
  })

  it('two cases with one id, given or derived', () => {
    expect(
      thrown(() =>
        defineDatasetIn(dir, 'tickets', [
          { id: 'a', input: 1 },
          { id: 'a', input: 2 },
        ]),
      ).message,
    ).toBe('Dataset "tickets", case 2 (id "a"): `id` is also case 1\'s id; ids must be unique.')
    expect(thrown(() => defineDatasetIn(dir, 'tickets', [{ input: 1 }, { input: 1 }])).message).toMatch(
      /case 2 \(id "[0-9a-f]{12}"\): is identical to case 1, so both derive the id/,
    )
  })

  it('an `input` option that throws or makes a value that is not JSON', () => {
    expect(
      thrown(() =>
        defineDatasetIn(dir, 'tickets', [{ id: 'a' }], {
          input: () => {
            throw new Error('no message')
          },
        }),
      ).message,
    ).toBe('Dataset "tickets", case 1 (id "a"): the `input` option threw on it: no message.')
    expect(
      thrown(() => defineDatasetIn(dir, 'tickets', [{ id: 'a' }], { input: () => ({ at: new Date(0) }) }))
        .message,
    ).toMatch(
      /^Dataset "tickets", case 1 \(id "a"\): the `input` option made an input that is not a JSON value/,
    )
  })

  it('no cases', () => {
    expect(thrown(() => defineDatasetIn(dir, 'tickets', [])).message).toBe(
      'Dataset "tickets": has no cases; a dataset needs at least one.',
    )
  })

  it('a bad name, source or option is an InvalidOptionError naming it', () => {
    expect(() => defineDatasetIn(dir, '', [])).toThrow(InvalidOptionError)
    expect(() => defineDatasetIn(dir, 'd', 42)).toThrow(/`cases` must be an array of cases, or the path/)
    expect(() => defineDatasetIn(dir, 'd', [{ input: 1 }], { inputs: () => 1 })).toThrow(
      /unknown option `inputs`. It accepts: input/,
    )
  })
})
