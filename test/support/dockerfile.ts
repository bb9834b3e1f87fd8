// A reader for the Dockerfile instructions the project's recipe uses, so a test can run a stage's
// steps outside a container. It reads; it does not interpret what the recipe does not use.

export interface Instruction {
  readonly keyword: string
  /** The arguments as written, continuation lines joined. */
  readonly text: string
}

export interface Stage {
  readonly image: string
  readonly name: string | undefined
  readonly instructions: ReadonlyArray<Instruction>
}

/** The stages of a Dockerfile, each with its instructions in order (comments and blank lines dropped). */
export const stagesOf = (dockerfile: string): ReadonlyArray<Stage> => {
  const lines = dockerfile.replace(/\\\n/g, ' ').split('\n')
  const stages: Array<{ image: string; name: string | undefined; instructions: Instruction[] }> = []
  for (const line of lines.map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'))) {
    const [keyword = '', ...rest] = line.split(/\s+/)
    const text = rest.join(' ')
    if (keyword.toUpperCase() === 'FROM') {
      const [image = '', as, name] = rest
      stages.push({ image, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] })
    } else {
      const stage = stages.at(-1)
      if (stage === undefined) throw new Error(`a ${keyword} before any FROM`)
      stage.instructions.push({ keyword: keyword.toUpperCase(), text })
    }
  }
  return stages
}

/** `KEY=value KEY2=value2` (the recipe's form of ENV), as a record. */
export const envOf = (text: string): Record<string, string> =>
  Object.fromEntries(text.split(/\s+/).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]))

/** An exec-form command (`["node", "x.js"]`), as its words. */
export const execForm = (text: string): ReadonlyArray<string> => {
  const words: unknown = JSON.parse(text)
  if (!Array.isArray(words) || !words.every((word) => typeof word === 'string')) throw new Error(`not an exec-form command: ${text}`)
  return words as string[]
}

/** A COPY's flags, sources and destination. */
export const copyOf = (text: string): { readonly from: string | undefined; readonly sources: ReadonlyArray<string>; readonly dest: string } => {
  const words = text.split(/\s+/)
  const flags = words.filter((word) => word.startsWith('--'))
  const paths = words.filter((word) => !word.startsWith('--'))
  const from = flags.find((flag) => flag.startsWith('--from='))?.slice('--from='.length)
  return { from, sources: paths.slice(0, -1), dest: paths.at(-1) ?? '' }
}
