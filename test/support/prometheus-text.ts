/** One sample of Prometheus's text format: the metric name, its labels and its value. */
export interface Sample {
  readonly name: string
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g

/** Parses an exposition in Prometheus's text format into samples; comments are skipped. */
export const parsePrometheusText = (text: string): ReadonlyArray<Sample> =>
  text.split('\n').flatMap((line) => {
    const match = SAMPLE.exec(line)
    if (line.startsWith('#') || match === null) return []
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(LABEL)].map(([, key, value]) => [key, value]))
    return [{ name: match[1] ?? '', labels, value: Number(match[3]) }]
  })

/** The value of the one sample with this name and these labels (among others), or 0 when there is none. */
export const valueOf = (samples: ReadonlyArray<Sample>, name: string, labels: Readonly<Record<string, string>> = {}): number => {
  const found = samples.filter(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  )
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`)
  return found[0]?.value ?? 0
}
