import { expect } from 'chai'
import { makeIdRanges, runRounds, type Measurement } from '../../bench/http/measure.js'
import { autocannonLoad } from '../../bench/http/autocannon.js'
import { parseOptions, SERVER_KEYS, type ServerKey } from '../../bench/http/options.js'
import { median, renderReport } from '../../bench/http/report.js'
import { serverUnderTest } from '../../bench/http/servers-under-test.js'
import { FRESH } from '../../bench/http/workload.js'

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
}

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
      new Map<ServerKey, Measurement>([
        ['koa', measured(10_000, 100, 8)],
        ['service', measured(5_000, 200, 16)],
      ]),
      // A slow round for both: the same-round ratio is unchanged, a ratio of medians would not be.
      new Map<ServerKey, Measurement>([
        ['koa', measured(2_000, 400, 40)],
        ['service', measured(1_000, 800, 80)],
      ]),
    ]
    const report = renderReport(context, servers, rounds, undefined)
    expect(report).to.include('2026-11-22 20:00 UTC').and.include('wrk 4.1.0').and.include('2 cores')
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
    expect(report).to.include('- server CPU per request vs Koa <= 1.15x: 2.00x (not met)')
    expect(report).to.include('- req/s vs Koa >= 0.85x: 0.50x (not met)')
  })
})

describe('the HTTP benchmark report on MongoDB', () => {
  it('compares the service on MongoDB with the driver reference, apart from the in-memory table, with its goal', () => {
    const keys: ServerKey[] = ['koa', 'service', 'koa-mongodb', 'service-mongodb', 'koa-mongodb-mixed', 'service-mongodb-mixed']
    const servers = keys.map((key) => serverUnderTest(key, where))
    const round = new Map<ServerKey, Measurement>([
      ['koa', measured(10_000, 100, 8)],
      ['service', measured(10_000, 100, 8)],
      ['koa-mongodb', measured(6_000, 180, 15)],
      ['service-mongodb', measured(5_700, 190, 16)],
      ['koa-mongodb-mixed', measured(5_000, 200, 20)],
      ['service-mongodb-mixed', measured(4_000, 250, 30)],
    ])
    const report = renderReport(context, servers, [round], undefined)
    const cells = (label: string) =>
      report
        .split('\n')
        .find((line) => line.startsWith(`| ${label} |`))
        ?.split('|')
        .map((cell) => cell.trim())
        .slice(-4, -1)
    expect(cells("Koa 3, one middleware, the driver's `insertOne`"), 'the service on MongoDB over the driver reference').to.deep.equal([
      '0.95x',
      '1.06x',
      '1.07x',
    ])
    expect(cells('Koa 3, one middleware, the driver, mixed workload')).to.deep.equal(['0.80x', '1.25x', '1.50x'])
    expect(report)
      .to.include('- server CPU per request vs the driver reference <= 1.1x: 1.06x (met)')
      .and.include('- req/s vs the driver reference >= 0.9x: 0.95x (met)')
      .and.include('- p99 vs the driver reference <= 1.2x: 1.07x (met)')
      .and.include('- server CPU per request vs the driver reference <= 1.1x: 1.25x (not met)')
      .and.include('20 replays and 10 conflicts')
  })
})

describe('the HTTP benchmark rounds', () => {
  it('report a server that fails to start, leave it out and go on', async () => {
    const lines: string[] = []
    const broken = { key: 'koa' as const, label: 'Koa', workload: FRESH, start: () => Promise.reject(new Error('exited with 1\nstack')) }
    const { rounds, failures } = await runRounds([broken], 2, {
      load: autocannonLoad,
      shape: { threads: 1, connections: 1, durationSeconds: 1 },
      warmupSeconds: 0,
      ids: makeIdRanges(),
      progress: (line) => lines.push(line),
    })
    expect(rounds.map((r) => r.size)).to.deep.equal([0, 0])
    expect(failures).to.deep.equal(['round 1/2 koa: Error: exited with 1', 'round 2/2 koa: Error: exited with 1'])
    const report = renderReport(context, [broken], rounds, undefined, failures)
    expect(report).to.include('| Koa | n/a |').and.include('Failed runs, left out of the medians above:\n- round 1/2 koa')
  })
})

describe('the HTTP benchmark options', () => {
  it('defaults to the shape of issue 11: one thread, 50 connections, three rounds, every server', () => {
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
