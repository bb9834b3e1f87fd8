import fc from 'fast-check'

// How many cases a property test tries: the count written beside it (fast-check's 100 where none
// is), times one setting for the run, PROPERTY_RUNS (1 when unset). The counts are sized so that
// `npm test` stays quick; `PROPERTY_RUNS=10 npm test` searches ten times as far, and
// `PROPERTY_RUNS=0.1` gives a smoke run. .mocharc.json requires this file so that every mocha
// process (each worker of a parallel run) gives fast-check's default the same scale.
const SETTING = 'PROPERTY_RUNS'

const scaleOf = (text: string | undefined): number => {
  if (text === undefined || text.trim() === '') return 1
  const scale = Number(text)
  if (!Number.isFinite(scale) || scale <= 0) throw new Error(`${SETTING} must be a positive number, not ${JSON.stringify(text)}`)
  return scale
}

export const PROPERTY_RUNS_SCALE = scaleOf(process.env[SETTING])

/** The number of runs for a property whose written count is `written`: at least one. */
export const propertyRuns = (written: number): number => Math.max(1, Math.round(written * PROPERTY_RUNS_SCALE))

// A failing property's report carries its assertion's message: fast-check otherwise attaches it as
// the error's cause, which mocha does not print, and a failure would show only its counterexample.
fc.configureGlobal({ ...fc.readConfigureGlobal(), numRuns: propertyRuns(100), includeErrorInReport: true })
