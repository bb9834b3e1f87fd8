import { connect } from 'node:net'
import { checkRawExchange } from './traffic-check.js'

/**
 * Sends raw bytes to a server started by the tests and answers everything it sends back until it
 * closes, checked against the OpenAPI document like every other answer. For what fetch cannot
 * send: a request without Host, a broken request line, TRACE, headers that never end.
 */
export const rawExchange = async (url: string, request: string): Promise<string> => {
  const reply = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1', () => socket.write(request))
    let received = ''
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk))
    socket.on('close', () => resolve(received))
    socket.on('error', reject)
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer within 5 s')))
  })
  await checkRawExchange(url, request, reply)
  return reply
}
