// Reference: bare node:http doing the benchmark's work by hand.
import { createServer, type ServerResponse } from 'node:http'
import { errorBody, HOST, isAuthorized, isNewPlant, makeReferenceStore, readSettings } from './reference-kit.js'

const { port, token, bodyLimitBytes } = readSettings(process.env)
const store = makeReferenceStore()

const send = (res: ServerResponse, status: number, body: string): void => {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) })
  res.end(body)
}

createServer((req, res) => {
  if (req.url !== '/plants') return send(res, 404, errorBody(404, 'Not found.'))
  if (req.method !== 'POST') return send(res, 405, errorBody(405, 'Use POST.'))
  if (!isAuthorized(req.headers.authorization, token)) return send(res, 401, errorBody(401, 'Send a valid token.'))
  if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
    return send(res, 415, errorBody(415, 'Send application/json.'))
  }
  const chunks: Buffer[] = []
  let size = 0
  let refused = false
  req.on('data', (chunk: Buffer) => {
    size += chunk.length
    if (size > bodyLimitBytes && !refused) {
      refused = true
      res.setHeader('Connection', 'close')
      send(res, 413, errorBody(413, 'Body too large.'))
    }
    if (!refused) chunks.push(chunk)
  })
  req.on('end', () => {
    if (refused) return
    let value: unknown
    try {
      value = JSON.parse(Buffer.concat(chunks, size).toString('utf8'))
    } catch {
      return send(res, 400, errorBody(400, 'Malformed JSON.'))
    }
    if (!isNewPlant(value)) return send(res, 400, errorBody(400, 'Invalid NewPlant.'))
    const stored = store(value)
    if (stored === undefined) return send(res, 409, errorBody(409, 'Another plant has this id.'))
    send(res, 200, JSON.stringify(stored))
  })
}).listen(port, HOST)
