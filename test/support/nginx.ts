import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { ROOT } from './clean-clone.js'
import { freePort } from './free-port.js'

// The project's load balancer recipe, deploy/nginx.conf, run by a local nginx in front of
// services on loopback. The file is changed only where a test must: the instances' and the
// listener's addresses, and where the process keeps its pid, logs and temporary files. Every
// other line is the shipped one.

export const SHIPPED_NGINX_CONF = join(ROOT, 'deploy/nginx.conf')

/** The nginx program, or why there is none (Debian: `apt-get install nginx`). */
export const findNginx = (): string | { readonly missing: string } => {
  for (const candidate of ['nginx', '/usr/sbin/nginx']) {
    const probe = spawnSync(candidate, ['-v'], { encoding: 'utf8' })
    if (probe.status === 0) return candidate
  }
  return { missing: 'nginx is not installed here (Debian: apt-get install nginx), so the load balancer recipe cannot be run' }
}

/**
 * The shipped configuration with each upstream `server host:port` replaced, in order, by the
 * given loopback addresses, the listener on 127.0.0.1, and the pid, logs and temporary files in
 * `dir`. Throws when the file no longer has the shape this rewriting expects, so a changed recipe
 * is noticed rather than half-rewritten.
 */
export const rewriteForLoopback = (conf: string, options: { readonly upstreams: ReadonlyArray<string>; readonly port: number; readonly dir: string }): string => {
  const servers = [...conf.matchAll(/^(\s*server\s+)[A-Za-z0-9.-]+:\d+(\s)/gm)]
  if (servers.length !== options.upstreams.length) {
    throw new Error(`deploy/nginx.conf names ${servers.length} upstream servers; the test starts ${options.upstreams.length}`)
  }
  let index = 0
  const withUpstreams = conf.replace(/^(\s*server\s+)[A-Za-z0-9.-]+:\d+(\s)/gm, (_, head: string, tail: string) => `${head}${options.upstreams[index++] ?? ''}${tail}`)
  const listens = withUpstreams.match(/^\s*listen\s+\d+;/gm) ?? []
  if (listens.length !== 1) throw new Error(`deploy/nginx.conf has ${listens.length} plain \`listen PORT;\` lines; the test expects one`)
  const listening = withUpstreams.replace(/^(\s*listen\s+)\d+;/m, `$1127.0.0.1:${options.port};`)
  if (!/^http \{$/m.test(listening)) throw new Error('deploy/nginx.conf has no `http {` line')
  const paths = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${join(options.dir, kind)};`)
  return [
    `pid ${join(options.dir, 'nginx.pid')};`,
    `error_log ${join(options.dir, 'error.log')} warn;`,
    listening.replace(/^http \{$/m, ['http {', `  access_log ${join(options.dir, 'access.log')};`, ...paths].join('\n')),
  ].join('\n')
}

const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })

export interface RunningNginx {
  readonly url: string
  readonly child: ChildProcess
  readonly errorLog: () => string
  readonly stop: () => Promise<void>
}

/** Starts nginx in the foreground on the rewritten shipped configuration; resolves once it accepts connections. */
export const startShippedNginx = async (nginx: string, upstreams: ReadonlyArray<string>, dir: string): Promise<RunningNginx> => {
  // nginx started as root runs its workers as an unprivileged user, who must reach the temporary files.
  chmodSync(dir, 0o755)
  const port = await freePort()
  const conf = join(dir, 'nginx.conf')
  writeFileSync(conf, rewriteForLoopback(readFileSync(SHIPPED_NGINX_CONF, 'utf8'), { upstreams, port, dir }))
  const errorLogPath = join(dir, 'error.log')
  const errorLog = () => (existsSync(errorLogPath) ? readFileSync(errorLogPath, 'utf8') : '')
  const child = spawn(nginx, ['-e', errorLogPath, '-p', dir, '-c', conf, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const exited = once(child, 'exit')
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    await exited
  }
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${stderr}${errorLog()}`)
    if (await accepts(port)) return { url: `http://127.0.0.1:${port}`, child, errorLog, stop }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  await stop()
  throw new Error(`nginx did not listen within 10 s: ${stderr}${errorLog()}`)
}
