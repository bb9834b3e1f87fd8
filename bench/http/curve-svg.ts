// The curve as a picture: the service's req/s and CPU per request over the driver reference's,
// by connection count, as SVG text (no charting library: a few lines and labels).
import { curveGoals, type CurvePoint, type Metric, type Spread } from './curve.js'

const WIDTH = 720
const HEIGHT = 400
const PLOT = { left: 64, right: WIDTH - 24, top: 56, bottom: HEIGHT - 90 }

const SERIES: ReadonlyArray<{ readonly metric: Metric; readonly label: string; readonly colour: string }> = [
  { metric: 'reqPerSec', label: 'req/s, service ÷ reference (higher is better)', colour: '#1f6fb4' },
  { metric: 'cpu', label: 'CPU per request, service ÷ reference (lower is better)', colour: '#d9661f' },
]

const escape = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

const connectionsLabel = (n: number): string => `${n} connection${n === 1 ? '' : 's'}`

const fixed = (n: number): string => n.toFixed(1)

const text = (x: number, y: number, content: string, attributes = ''): string =>
  `<text x="${fixed(x)}" y="${fixed(y)}"${attributes === '' ? '' : ` ${attributes}`}>${escape(content)}</text>`

/** The upper end of the ratio axis: 2x at least, past the highest round, on a half step. */
const axisTop = (points: ReadonlyArray<CurvePoint>): number => {
  const highs = points.flatMap((p) => SERIES.map((s) => p.ratio[s.metric].high ?? 0))
  return Math.max(2, Math.ceil(Math.max(0, ...highs) * 1.1 * 2) / 2)
}

/** The picture; `caption` (date, machine, load) goes under the title. */
export const renderCurveSvg = (points: ReadonlyArray<CurvePoint>, caption: string): string => {
  const head = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" ` +
      'font-family="sans-serif" font-size="12">',
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    text(PLOT.left, 22, 'The service on MongoDB over the driver reference, by connection count', 'font-size="15" font-weight="bold"'),
    text(PLOT.left, 40, caption, 'fill="#555555"'),
  ]
  if (points.length === 0) {
    return [...head, text(WIDTH / 2, HEIGHT / 2, 'Not measured yet: a full npm run bench draws this curve.', 'text-anchor="middle"'), '</svg>', ''].join('\n')
  }
  const top = axisTop(points)
  const y = (ratio: number) => PLOT.bottom - (ratio / top) * (PLOT.bottom - PLOT.top)
  const step = (PLOT.right - PLOT.left) / points.length
  const x = (i: number) => PLOT.left + step * (i + 0.5)
  const body: string[] = []
  for (let tick = 0; tick <= top + 1e-9; tick += 0.5) {
    const at = y(tick)
    const isOne = Math.abs(tick - 1) < 1e-9
    body.push(
      `<line x1="${PLOT.left}" y1="${fixed(at)}" x2="${PLOT.right}" y2="${fixed(at)}" ` +
        (isOne ? 'stroke="#333333" stroke-width="1.5"/>' : 'stroke="#dddddd"/>'),
      text(PLOT.left - 8, at + 4, `${tick.toFixed(1)}x`, 'text-anchor="end"'),
    )
  }
  points.forEach((p, i) => body.push(text(x(i), PLOT.bottom + 18, String(p.connections), 'text-anchor="middle"')))
  body.push(text((PLOT.left + PLOT.right) / 2, PLOT.bottom + 36, 'open connections', 'text-anchor="middle"'))
  SERIES.forEach(({ metric, colour }, s) => {
    // The two series sit a little apart at each count, so their bars do not hide each other.
    const offset = (s - 0.5) * 10
    const at = (i: number) => x(i) + offset
    const goals = points.map((p, i) => ({ i, goal: curveGoals(p.connections).find((g) => g.metric === metric) }))
    for (const { i, goal } of goals) {
      if (goal === undefined) continue
      body.push(
        `<line class="goal" x1="${fixed(at(i) - 14)}" y1="${fixed(y(goal.bound))}" x2="${fixed(at(i) + 14)}" y2="${fixed(y(goal.bound))}" ` +
          `stroke="${colour}" stroke-width="2" stroke-dasharray="3 2"/>`,
      )
    }
    const measured = points
      .map((p, i) => ({ i, spread: p.ratio[metric] }))
      .filter((m): m is { i: number; spread: Spread & { median: number } } => m.spread.median !== undefined)
    if (measured.length > 1) {
      const path = measured.map(({ i, spread }) => `${fixed(at(i))},${fixed(y(spread.median))}`).join(' ')
      body.push(`<polyline points="${path}" fill="none" stroke="${colour}" stroke-width="2"/>`)
    }
    for (const { i, spread } of measured) {
      if (spread.low !== undefined && spread.high !== undefined && spread.low !== spread.high) {
        body.push(`<line x1="${fixed(at(i))}" y1="${fixed(y(spread.low))}" x2="${fixed(at(i))}" y2="${fixed(y(spread.high))}" stroke="${colour}" stroke-width="1"/>`)
      }
      body.push(
        `<circle class="${metric}" cx="${fixed(at(i))}" cy="${fixed(y(spread.median))}" r="4" fill="${colour}">` +
          `<title>${escape(`${connectionsLabel(points[i]?.connections ?? 0)}: ${spread.median.toFixed(2)}x`)}</title></circle>`,
      )
    }
  })
  const legendY = HEIGHT - 14
  SERIES.forEach(({ label, colour }, s) => {
    const lx = PLOT.left + s * 330
    body.push(`<circle cx="${lx}" cy="${legendY - 4}" r="4" fill="${colour}"/>`, text(lx + 10, legendY, label))
  })
  body.push(text(PLOT.right, legendY - 18, 'dark line: as the reference; dots: medians of same-round ratios; bars: lowest to highest round; dashes: goals', 'text-anchor="end" fill="#555555" font-size="11"'))
  return [...head, ...body, '</svg>', ''].join('\n')
}
