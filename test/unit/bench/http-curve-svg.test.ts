import { expect } from 'chai'
import { curvePoints } from '../../../bench/http/curve.js'
import { renderCurveSvg } from '../../../bench/http/curve-svg.js'
import type { Measurement, Round } from '../../../bench/http/measure.js'
import type { ServerKey } from '../../../bench/http/options.js'

const measured = (reqPerSec: number, cpuUsPerRequest: number): Measurement => ({
  requests: reqPerSec,
  seconds: 1,
  reqPerSec,
  p50Ms: 1,
  p99Ms: 2,
  non2xx: 0,
  socketErrors: 0,
  cpuUsPerRequest,
  rssBytes: undefined,
  stored: reqPerSec,
})

const LEVELS = [1, 5, 10, 20, 50]
/** Two rounds; the service's req/s ratio rises with the connections, its CPU ratio falls. */
const rounds: Round[] = [0, 0.2].map(
  (extra) =>
    new Map<ServerKey, Map<number, Measurement>>([
      ['koa-mongodb', new Map(LEVELS.map((c) => [c, measured(1_000, 200)]))],
      ['service-mongodb', new Map(LEVELS.map((c, i) => [c, measured(1_000 * (0.5 + i * 0.25 + extra), 200 * (2 - i * 0.25))]))],
    ]),
)

const attribute = (element: string, name: string): number => Number(new RegExp(`\\b${name}="([^"]+)"`).exec(element)?.[1])
const elements = (svg: string, pattern: RegExp): string[] => svg.match(pattern) ?? []

describe('the HTTP benchmark curve picture', () => {
  const svg = renderCurveSvg(curvePoints(rounds, LEVELS), '2026-11-25 22:00 UTC, 2 cores, wrk <4.1> & "taskset"')

  it('is one SVG document whose caption is escaped', () => {
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).to.equal(true)
    expect(svg.trimEnd().endsWith('</svg>')).to.equal(true)
    expect(svg).to.include('wrk &lt;4.1&gt; &amp; &quot;taskset&quot;').and.not.include('<4.1>')
  })

  it('labels the x axis with each connection count, left to right', () => {
    const labels = elements(svg, /<text [^>]*text-anchor="middle">\d+<\/text>/g)
    expect(labels.map((l) => />(\d+)</.exec(l)?.[1])).to.deep.equal(['1', '5', '10', '20', '50'])
    const xs = labels.map((l) => attribute(l, 'x'))
    expect([...xs].sort((a, b) => a - b)).to.deep.equal(xs)
  })

  it('draws a dot per level for req/s and for CPU per request, higher on the page for a larger ratio', () => {
    const reqDots = elements(svg, /<circle class="reqPerSec"[^>]*>/g)
    const cpuDots = elements(svg, /<circle class="cpu"[^>]*>/g)
    expect(reqDots).to.have.length(5)
    expect(cpuDots).to.have.length(5)
    // SVG's y grows downwards: the rising req/s ratio has falling y, the falling CPU ratio rising y.
    const reqYs = reqDots.map((d) => attribute(d, 'cy'))
    const cpuYs = cpuDots.map((d) => attribute(d, 'cy'))
    expect([...reqYs].sort((a, b) => b - a)).to.deep.equal(reqYs)
    expect([...cpuYs].sort((a, b) => a - b)).to.deep.equal(cpuYs)
    // The medians: 0.6x (the two rounds' 0.5 and 0.7) at one connection, 1.6x at 50.
    expect(svg).to.include('<title>1 connection: 0.60x</title>').and.include('<title>50 connections: 1.60x</title>')
    expect(svg).to.include('<title>1 connection: 2.00x</title>').and.include('<title>50 connections: 1.00x</title>')
  })

  it('marks the goals: req/s at every level, CPU per request where one is set', () => {
    const goals = elements(svg, /<line class="goal"[^>]*>/g)
    // req/s has a goal at all five levels, CPU per request at the four light ones.
    expect(goals).to.have.length(9)
    const reqGoalYs = goals.filter((g) => g.includes('#1f6fb4')).map((g) => attribute(g, 'y1'))
    expect(reqGoalYs.slice(0, 4).every((y) => y === reqGoalYs[0]), 'the same bound (0.9x) from 1 to 20').to.equal(true)
    expect(reqGoalYs[4], 'a higher bound (1.2x) at 50').to.be.lessThan(reqGoalYs[0] as number)
  })

  it('shows the spread over rounds as a bar from the lowest to the highest round', () => {
    const bars = elements(svg, /<line x1="[^"]+" y1="[^"]+" x2="[^"]+" y2="[^"]+" stroke="#1f6fb4" stroke-width="1"\/>/g)
    expect(bars).to.have.length(5)
  })

  it('says so when nothing was measured', () => {
    const empty = renderCurveSvg([], 'no run yet')
    expect(empty).to.include('Not measured yet').and.not.include('<circle')
  })
})
