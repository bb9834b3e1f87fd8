// One POST at a time over a given agent: the soak's only way of talking to the service, so a
// status and a body are all it ever looks at (as a client would).
import { Agent, request } from 'node:http'

export interface Answer {
  readonly status: number
  readonly body: string
}

export interface PostOptions {
  readonly token?: string
  readonly contentType?: string
  readonly gzip?: boolean
}

export const TOKEN = 'soak-token-0123456789abcdef'

/** Sends `body` to `{url}/plants`; a connection failure is answered as status 0. */
export const post = (agent: Agent, url: string, body: Uint8Array | string, options: PostOptions = {}): Promise<Answer> =>
  new Promise((resolve) => {
    const req = request(
      `${url}/plants`,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${options.token ?? TOKEN}`,
          'content-type': options.contentType ?? 'application/json',
          ...(options.gzip === true ? { 'content-encoding': 'gzip' } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }))
        response.on('error', () => resolve({ status: 0, body: '' }))
      },
    )
    req.on('error', () => resolve({ status: 0, body: '' }))
    req.end(body)
  })

/** GETs a probe path; a connection failure is status 0. */
export const probe = async (url: string, path: string): Promise<number> => {
  try {
    const response = await fetch(`${url}${path}`)
    await response.arrayBuffer()
    return response.status
  } catch {
    return 0
  }
}

export const keepAliveAgent = (sockets: number): Agent => new Agent({ keepAlive: true, maxSockets: sockets })
