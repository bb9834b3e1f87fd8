// `npm run fuzz`: the wire fuzzer for longer than `npm run test:e2e` runs it, against the built service.
// It prints its seed first; the same seed (and, to replay a failure's shrinking, its path) plays
// the same scenarios again.
//   npm run fuzz -- --runs 500 --seed 42
import fc from 'fast-check'
import { parseArgs } from 'node:util'
import { isBuildCurrent } from '../current-build.js'
import { keepService } from './service-under-fuzz.js'
import { DEFAULT_WIRE_FUZZ_SETTINGS, wireProperty } from './wire-property.js'

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '300' },
    seed: { type: 'string' },
    path: { type: 'string' },
    'max-actions': { type: 'string', default: String(DEFAULT_WIRE_FUZZ_SETTINGS.maxActions) },
    'max-rss-mib': { type: 'string', default: String(DEFAULT_WIRE_FUZZ_SETTINGS.maxResidentMiB) },
    'shrink-seconds': { type: 'string', default: String(DEFAULT_WIRE_FUZZ_SETTINGS.shrinkBudgetMs / 1000) },
    'crowd-odds': { type: 'string', default: String(DEFAULT_WIRE_FUZZ_SETTINGS.crowdOdds) },
    'stop-odds': { type: 'string', default: String(DEFAULT_WIRE_FUZZ_SETTINGS.stopOdds) },
  },
})
const runs = Number(values.runs)
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed)
const maxActions = Number(values['max-actions'])
const maxResidentMiB = Number(values['max-rss-mib'])
const shrinkSeconds = Number(values['shrink-seconds'])
const crowdOdds = Number(values['crowd-odds'])
const stopOdds = Number(values['stop-odds'])
const isOdds = (odds: number): boolean => odds >= 0 && odds <= 1
if (
  !Number.isInteger(runs) || runs < 1 ||
  !Number.isInteger(seed) ||
  !Number.isInteger(maxActions) || maxActions < 1 ||
  !(maxResidentMiB > 0) ||
  !(shrinkSeconds >= 0) ||
  !isOdds(crowdOdds) ||
  !isOdds(stopOdds)
) {
  console.error(
    'usage: npm run fuzz -- [--runs N] [--seed INT] [--path P] [--max-actions N] [--max-rss-mib MiB] [--shrink-seconds S] [--crowd-odds 0..1] [--stop-odds 0..1]',
  )
  process.exit(2)
}
if (!isBuildCurrent()) {
  console.error('dist/ is missing or older than the sources: run `npm run build` first (npm run fuzz does)')
  process.exit(2)
}

console.log(`wire fuzz: seed ${seed}, ${runs} runs, up to ${maxActions} actions each${values.path === undefined ? '' : `, path ${values.path}`}`)
const keeper = keepService()
const started = performance.now()
const details = await fc.check(
  wireProperty(keeper, { ...DEFAULT_WIRE_FUZZ_SETTINGS, maxActions, maxResidentMiB, shrinkBudgetMs: shrinkSeconds * 1000, crowdOdds, stopOdds }),
  { numRuns: runs, seed, ...(values.path === undefined ? {} : { path: values.path }) },
)
await keeper.stop()
const seconds = ((performance.now() - started) / 1000).toFixed(0)
if (details.failed) {
  console.log(fc.defaultReportMessage(details) ?? "failed")
  console.log(details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance))
  console.log(`wire fuzz: failed after ${seconds} s (${keeper.starts()} service processes); replay with --seed ${seed} --path ${details.counterexamplePath ?? ''}`)
  process.exit(1)
}
console.log(`wire fuzz: ${details.numRuns} scenarios held in ${seconds} s (${keeper.starts()} service process${keeper.starts() === 1 ? '' : 'es'})`)
