import { expect } from 'chai'
import { curvePoints } from '../../../bench/http/curve.js'
import { makeIdRanges, planRuns, runRounds, type FlatCheck, type Measurement, type Round } from '../../../bench/http/measure.js'
import { autocannonLoad } from '../../../bench/http/autocannon.js'
import { parseOptions, SERVER_KEYS, type ServerKey } from '../../../bench/http/options.js'
import { median, renderReport } from '../../../bench/http/report.js'
import { serverUnderTest } from '../../../bench/http/servers-under-test.js'
import { FRESH } from '../../../bench/http/workload.js'

const where = { referencesDir: '/nowhere', logDir: undefined, serviceEnv: {} }
const context = {
  date: new Date('2026-11-22T20:00:00Z'),
  loadDescription: 'wrk 4.1.0',
  threads: 1,
  connections: 50,
  durationSeconds: 5,
  warmupSeconds: 2,
  rounds: 2,
  machine: '2 cores',
  pinning: 'taskset: the server on core 1',
  elapsedSeconds: 754,
  picture: 'performance-curve.svg',
}

/** A round of servers each measured at 50 connections. */
const at50 = (entries: ReadonlyArray<readonly [ServerKey, Measurement]>): Round =>
  new Map(entries.map(([key, m]) => [key, new Map([[50, m]])]))

const measured = (reqPerSec: number, cpuUsPerRequest: number, p99Ms: number): Measurement => ({
  requests: reqPerSec * 5,
  seconds: 5,
  reqPerSec,
  p50Ms: p99Ms / 2,
  p99Ms,
  non2xx: 1,
  socketErrors: 0,
  cpuUsPerRequest,
  rssBytes: 64 * 2 ** 20,
  stored: reqPerSec * 5,
})

describe('the HTTP benchmark report', () => {
  it('takes the median, even count included', () => {
    expect(median([3, 1, 2])).to.equal(2)
    expect(median([4, 1, 2, 3])).to.equal(2.5)
    expect(median([])).to.equal(undefined)
  })

  it('prints medians per server, ratios of the service to each reference from the same round, and the goal', () => {
    const servers = (['koa', 'service'] as ServerKey[]).map((key) => serverUnderTest(key, where))
    const rounds = [
      at50([
        ['koa', measured(10_000, 100, 8)],
        ['service', measured(5_000, 200, 16)],
      ]),
      // A slow round for both: the same-round ratio is unchanged, a ratio of medians would not be.
      at50([
        ['koa', measured(2_000, 400, 40)],
        ['service', measured(1_000, 800, 80)],
      ]),
    ]
    const report = renderReport(context, servers, rounds, undefined)
    expect(report).to.include('2026-11-22 20:00 UTC').and.include('wrk 4.1.0').and.include('2 cores')
    expect(report).to.include('Pinning: taskset: the server on core 1.').and.include('The whole run took 12 min 34 s.')
    const koaRow = report.split('\n').find((line) => line.startsWith('| Koa'))
    expect(koaRow?.split('|').map((cell) => cell.trim())).to.deep.equal([
      '',
      'Koa 3 + @koa/router + koa-bodyparser, minimal handler',
      '6,000',
      '12.0 ms',
      '24.0 ms',
      '250 us',
      '64 MiB',
      '2',
      '0',
      '0.50x',
      '2.00x',
      '2.00x',
      '',
    ])
    expect(report).to.include('- server CPU per request vs minimal Koa <= 0.8x: 2.00x (not met)')
    expect(report).to.include('- req/s vs minimal Koa >= 0.85x: 0.50x (not met)')
    expect(report, 'no run at one connection').not.to.include('in memory at 1 connection')
  })

  it('holds the service in memory to Koa doing the same work and to minimal Koa, at 50 connections and at 1', () => {
    const keys: ServerKey[] = ['koa', 'koa-same-work', 'koa-floor', 'service']
    const servers = keys.map((key) => serverUnderTest(key, where))
    const at = (fifty: Measurement, one: Measurement) => new Map([[50, fifty], [1, one]])
    const round: Round = new Map([
      ['koa', at(measured(10_000, 100, 10), measured(5_000, 200, 1))],
      ['koa-same-work', at(measured(16_000, 60, 6), measured(6_000, 150, 1))],
      ['koa-floor', at(measured(30_000, 30, 4), measured(8_000, 100, 1))],
      ['service', at(measured(12_500, 75, 9), measured(6_000, 160, 1))],
    ])
    const report = renderReport(context, servers, [round], undefined)
    expect(report).to.include('Connections: 50 for the tables (in memory also 1),')
    expect(report)
      .to.include('The performance goals at 50 connections, the service against references in the same rounds:')
      .and.include('- server CPU per request vs Koa doing the same work <= 1.3x: 1.25x (met)')
      .and.include('- server CPU per request vs minimal Koa <= 0.8x: 0.75x (met)')
      .and.include("- p99 vs minimal Koa's <= 1x: 0.90x (met)")
    const [, atOne] = report.split('The same servers in memory at 1 connection')
    expect(atOne).to.include("| Koa 3 doing the service's work in one middleware | 6,000 |")
    expect(atOne?.split('\n').slice(-3)).to.deep.equal([
      'The performance goals at 1 connection, the service against references in the same rounds:',
      '- server CPU per request vs Koa doing the same work <= 1.1x: 1.07x (met)',
      '- server CPU per request vs minimal Koa <= 0.8x: 0.80x (met)',
    ])
    expect(report, "Koa's floor is a measure, not a goal").not.to.match(/^- .*floor/m)
  })

  it('sets no goal in memory at a connection count the goals do not name', () => {
    const servers = (['koa', 'service'] as ServerKey[]).map((key) => serverUnderTest(key, where))
    const round: Round = new Map([
      ['koa', new Map([[20, measured(10_000, 100, 8)]])],
      ['service', new Map([[20, measured(10_000, 100, 8)]])],
    ])
    const report = renderReport({ ...context, connections: 20 }, servers, [round], undefined)
    expect(report).to.include('No goal is set in memory at 20 connections; they are set at 50 and at 1.')
    expect(report).not.to.match(/^- server CPU/m)
  })
})

describe('the HTTP benchmark report on MongoDB', () => {
  it('compares the mixed workload with the driver reference in a table of its own, with its goal', () => {
    const keys: ServerKey[] = ['koa', 'service', 'koa-mongodb-mixed', 'service-mongodb-mixed']
    const servers = keys.map((key) => serverUnderTest(key, where))
    const round = at50([
      ['koa', measured(10_000, 100, 8)],
      ['service', measured(10_000, 100, 8)],
      ['koa-mongodb-mixed', measured(5_000, 200, 20)],
      ['service-mongodb-mixed', measured(4_000, 250, 30)],
    ])
    const report = renderReport(context, servers, [round], undefined)
    const cells = report
      .split('\n')
      .find((line) => line.startsWith('| Koa 3, one middleware, the driver, mixed workload |'))
      ?.split('|')
      .map((cell) => cell.trim())
      .slice(-4, -1)
    expect(cells).to.deep.equal(['0.80x', '1.25x', '1.50x'])
    expect(report)
      .to.include('- server CPU per request vs the driver reference <= 1.1x: 1.25x (not met)')
      .and.include('- req/s vs the driver reference >= 0.9x: 0.80x (not met)')
      .and.include('20 replays and 10 conflicts')
    expect(report, 'no curve was measured').not.to.include('The production path at every load')
  })
})

describe('the HTTP benchmark curve', () => {
  const LEVELS = [1, 5, 10, 20, 50]
  /** The reference and the service at every level, in two rounds; the second twice as slow for both. */
  const curveRounds = (service: (connections: number) => readonly [number, number, number]): Round[] =>
    [1, 2].map(
      (slow) =>
        new Map<ServerKey, Map<number, Measurement>>([
          ['koa-mongodb', new Map(LEVELS.map((c) => [c, measured(1_000 * c / slow, 200 * slow, 10 * slow)]))],
          [
            'service-mongodb',
            new Map(
              LEVELS.map((c) => {
                const [req, cpu, p99] = service(c)
                return [c, measured((req * 1_000 * c) / slow, cpu * 200 * slow, p99 * 10 * slow)]
              }),
            ),
          ],
        ]),
    )
  const servers = (['koa-mongodb', 'service-mongodb'] as ServerKey[]).map((key) => serverUnderTest(key, where))
  const row = (report: string, connections: number) =>
    report
      .split('\n')
      .find((line) => line.startsWith(`| ${connections} |`))
      ?.split('|')
      .map((cell) => cell.trim())
      .slice(1, -1)

  it('prints, at each connection count, both servers\' medians and the same-round ratios with their spread', () => {
    // The service at 0.5x the reference's req/s, 2x its CPU and p99 at one connection; as good from 5 up.
    const rounds = curveRounds((c) => (c === 1 ? [0.5, 2, 2] : [1, 1, 1]))
    // A third round in which the service does better at one connection: the spread shows it.
    const third = new Map<ServerKey, Map<number, Measurement>>([
      ['koa-mongodb', new Map([[1, measured(1_000, 200, 10)]])],
      ['service-mongodb', new Map([[1, measured(900, 220, 10)]])],
    ])
    const report = renderReport(context, servers, [...rounds, third], undefined, [], curvePoints([...rounds, third], LEVELS))
    expect(row(report, 1)).to.deep.equal([
      '1',
      '1,000',
      '500',
      '0.50x (0.50-0.90)',
      '200 us',
      '400 us',
      '2.00x (1.10-2.00)',
      '5.00 ms',
      '10.00 ms',
      '2.00x (1.00-2.00)',
      '10.00 ms',
      '20.00 ms',
      '2.00x (1.00-2.00)',
      '3 / 0',
      '3 / 0',
    ])
    expect(row(report, 50)?.slice(0, 4)).to.deep.equal(['50', '37,500', '37,500', '1.00x'])
    expect(report.split('\n').filter((line) => /^\| \d+ \|/.test(line))).to.have.length(5)
    expect(report).to.include('![The service over the driver reference by connection count: req/s and CPU per request](performance-curve.svg)')
  })

  it('says of each connection count whether it meets its goals, and of the run whether all do', () => {
    const rounds = curveRounds((c) => (c === 1 ? [0.85, 1.05, 1.1] : c === 50 ? [1.3, 0.7, 0.9] : [1, 1, 1]))
    const report = renderReport(context, servers, rounds, undefined, [], curvePoints(rounds, LEVELS))
    expect(report)
      .to.include('- 1 connection: not met: CPU per request <= 1.1x: 1.05x (met); req/s >= 0.9x: 0.85x (not met); p50 <= 1.1x: 1.10x (met)')
      .and.include('- 5 connections: met: CPU per request <= 1.1x: 1.00x (met); req/s >= 0.9x: 1.00x (met); p50 <= 1.2x: 1.00x (met)')
      .and.include('- 20 connections: met:')
      .and.include('- 50 connections: met: req/s >= 1.2x: 1.30x (met); p99 <= 1x: 0.90x (met)')
      .and.include('Every level measured here meets its goals: no.')
    const better = curveRounds((c) => (c === 50 ? [1.3, 0.7, 0.9] : [1, 1, 1]))
    expect(renderReport(context, servers, better, undefined, [], curvePoints(better, LEVELS))).to.include(
      'Every level measured here meets its goals: yes.',
    )
  })

  it('has no goal at a count the goals do not name, and says when a ratio is missing', () => {
    const rounds: Round[] = [
      new Map<ServerKey, Map<number, Measurement>>([
        ['koa-mongodb', new Map([[2, measured(1_000, 200, 10)], [5, measured(1_000, 200, 10)]])],
        ['service-mongodb', new Map([[2, measured(1_000, 200, 10)]])],
      ]),
    ]
    const report = renderReport(context, servers, rounds, undefined, [], curvePoints(rounds, [2, 5]))
    expect(report)
      .to.include('- 2 connections: no goal set at this count')
      .and.include('- 5 connections: not measured: CPU per request <= 1.1x: n/a (not measured)')
    expect(row(report, 5)?.slice(0, 4)).to.deep.equal(['5', '1,000', 'n/a', 'n/a'])
  })

  it("checks the in-memory goal with many plants stored: the filled run's p99 against minimal Koa's", () => {
    const flat: FlatCheck = {
      empty: measured(10_000, 100, 8),
      full: measured(9_000, 110, 12),
      plantsEmpty: 100_000,
      plantsFull: 1_000_000,
      fill: { requests: 900_000, seconds: 60, p50Ms: 1, p99Ms: 2, non2xx: 0, socketErrors: 0 },
      rssBytesPerPlant: 200,
    }
    const inMemory = (['koa', 'service'] as ServerKey[]).map((key) => serverUnderTest(key, where))
    const round = at50([
      ['koa', measured(10_000, 100, 8)],
      ['service', measured(9_000, 110, 9)],
    ])
    expect(renderReport(context, inMemory, [round], flat)).to.include("- p99 with 1,000,000 plants stored vs minimal Koa's <= 1.2x: 1.50x (not met)")
  })
})

describe('the HTTP benchmark runs', () => {
  const servers = (['koa', 'koa-mongodb', 'service', 'service-mongodb'] as ServerKey[]).map((key) => serverUnderTest(key, where))

  it('measure the curve\'s servers at every level, side by side, and the others at the one connection count', () => {
    const runs = planRuns(servers, ['koa-mongodb', 'service-mongodb'], [1, 5, 50], 50)
    expect(runs.map((r) => `${r.server.key}@${r.connections}`)).to.deep.equal([
      'koa@50',
      'service@50',
      'koa-mongodb@1',
      'service-mongodb@1',
      'koa-mongodb@5',
      'service-mongodb@5',
      'koa-mongodb@50',
      'service-mongodb@50',
    ])
  })

  it('measure the in-memory servers at one connection too, side by side, unless the tables already are at one', () => {
    const runs = planRuns(servers, ['koa-mongodb', 'service-mongodb'], [5], 50, ['koa', 'service'])
    expect(runs.map((r) => `${r.server.key}@${r.connections}`)).to.deep.equal([
      'koa@50',
      'service@50',
      'koa@1',
      'service@1',
      'koa-mongodb@5',
      'service-mongodb@5',
    ])
    const atOne = planRuns(servers, ['koa-mongodb', 'service-mongodb'], [5], 1, ['koa', 'service'])
    expect(atOne.map((r) => `${r.server.key}@${r.connections}`)).to.deep.equal(['koa@1', 'service@1', 'koa-mongodb@5', 'service-mongodb@5'])
  })

  it('load each run with its own connection count and keep its numbers under it, in a rotated order each round', async () => {
    const started: string[] = []
    const fake = (key: ServerKey) => ({
      key,
      label: key,
      workload: FRESH,
      start: () => {
        const process = { pid: 1, url: `http://${key}`, cpuSeconds: () => undefined, rssBytes: () => undefined, stop: async () => {} }
        return Promise.resolve(process)
      },
    })
    const load = {
      description: 'fake',
      // Answers as many requests as it has connections, so each number tells which level it came from.
      run: (url: string, _token: string, shape: { connections: number }) => {
        started.push(`${url.slice(7)}@${shape.connections}`)
        return Promise.resolve({ requests: shape.connections, seconds: 1, p50Ms: 1, p99Ms: 2, non2xx: 0, socketErrors: 0 })
      },
      send: () => Promise.reject(new Error('not used')),
    }
    const runs = planRuns([fake('koa-mongodb'), fake('service-mongodb')], ['koa-mongodb', 'service-mongodb'], [1, 5], 50)
    const { rounds, failures } = await runRounds(runs, 2, {
      load,
      shape: { threads: 1, connections: 50, durationSeconds: 1 },
      warmupSeconds: 0,
      ids: makeIdRanges(),
      progress: () => {},
    })
    expect(failures).to.deep.equal([])
    expect(started).to.deep.equal([
      'koa-mongodb@1',
      'service-mongodb@1',
      'koa-mongodb@5',
      'service-mongodb@5',
      'service-mongodb@1',
      'koa-mongodb@5',
      'service-mongodb@5',
      'koa-mongodb@1',
    ])
    expect(rounds.map((r) => [...(r.get('service-mongodb') ?? [])].map(([c, m]) => [c, m.reqPerSec]).sort())).to.deep.equal([
      [
        [1, 1],
        [5, 5],
      ],
      [
        [1, 1],
        [5, 5],
      ],
    ])
  })

  it('report a server that fails to start, leave it out and go on', async () => {
    const lines: string[] = []
    const broken = { key: 'koa' as const, label: 'Koa', workload: FRESH, start: () => Promise.reject(new Error('exited with 1\nstack')) }
    const { rounds, failures } = await runRounds([{ server: broken, connections: 50 }], 2, {
      load: autocannonLoad,
      shape: { threads: 1, connections: 1, durationSeconds: 1 },
      warmupSeconds: 0,
      ids: makeIdRanges(),
      progress: (line) => lines.push(line),
    })
    expect(rounds.map((r) => r.size)).to.deep.equal([0, 0])
    expect(failures).to.deep.equal([
      'round 1/2 koa at 50 connections: Error: exited with 1',
      'round 2/2 koa at 50 connections: Error: exited with 1',
    ])
    const report = renderReport(context, [broken], rounds, undefined, failures)
    expect(report).to.include('| Koa | n/a |').and.include('Failed runs, left out of the medians above:\n- round 1/2 koa at 50 connections')
  })
})

describe('the HTTP benchmark options', () => {
  it('defaults to one thread, 50 connections, three rounds, every server', () => {
    const parsed = parseOptions([], {})
    expect(parsed.ok).to.equal(true)
    if (!parsed.ok) return
    expect(parsed.options).to.include({ rounds: 3, threads: 1, connections: 50, prefill: 1_000_000, load: 'auto' })
    expect(parsed.options.servers).to.deep.equal([...SERVER_KEYS])
  })

  it('takes a flag over its variable, and names every bad setting', () => {
    const parsed = parseOptions(['--rounds', '5', '--only', 'koa,service', '--service-env', 'BODY_LIMIT=1mb'], {
      BENCH_ROUNDS: '2',
      BENCH_DURATION: '7',
    })
    expect(parsed.ok && parsed.options).to.deep.include({
      rounds: 5,
      durationSeconds: 7,
      servers: ['koa', 'service'],
      serviceEnv: { BODY_LIMIT: '1mb' },
    })
    const bad = parseOptions(['--rounds', '0', '--only', 'nginx', '--load', 'ab'], { BENCH_DURATION: '1.5' })
    expect(bad.ok).to.equal(false)
    if (bad.ok) return
    expect(bad.problems.join('\n'))
      .to.include('--rounds (BENCH_ROUNDS)')
      .and.include('--duration (BENCH_DURATION)')
      .and.include('--only (BENCH_ONLY): unknown nginx')
      .and.include('--load (BENCH_LOAD)')
  })
})

describe('the HTTP benchmark options for the curve', () => {
  it('measures the curve at 1, 5, 10, 20 and 50 connections and draws it into docs/ unless told otherwise', () => {
    const parsed = parseOptions([], {})
    expect(parsed.ok && parsed.options).to.deep.include({ levels: [1, 5, 10, 20, 50], svgPath: 'docs/performance-curve.svg', durationSeconds: 5 })
  })

  it('takes the levels, the seconds and the picture for a quick run, from flags or variables', () => {
    const quick = parseOptions(['--levels', '5, 1,5', '--seconds', '1', '--rounds', '1', '--svg', '/tmp/curve.svg'], {})
    expect(quick.ok && quick.options).to.deep.include({ levels: [1, 5], durationSeconds: 1, rounds: 1, svgPath: '/tmp/curve.svg' })
    const fromEnv = parseOptions([], { BENCH_LEVELS: '20', BENCH_SECONDS: '2', BENCH_SVG: '' })
    expect(fromEnv.ok && fromEnv.options).to.deep.include({ levels: [20], durationSeconds: 2, svgPath: undefined })
  })

  it('refuses a level that is not a connection count', () => {
    for (const levels of ['0', '1,x', '2.5', '1,,5']) {
      const bad = parseOptions(['--levels', levels], {})
      expect(bad.ok, levels).to.equal(false)
      if (!bad.ok) expect(bad.problems.join('\n')).to.include('--levels (BENCH_LEVELS)')
    }
  })
})
