import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { ROOT } from './clean-clone.js'

// A reader for the project's compose.yaml, so tests can check the deployment it describes and
// start the service with the environment it gives, without a container engine.

export interface ComposeService {
  readonly image?: string
  readonly command?: unknown
  readonly environment?: Readonly<Record<string, string>>
  readonly volumes?: ReadonlyArray<string>
  readonly depends_on?: Readonly<Record<string, { readonly condition?: string }>> | ReadonlyArray<string>
  readonly healthcheck?: { readonly test?: ReadonlyArray<string> }
  readonly stop_grace_period?: string
  readonly ulimits?: Readonly<Record<string, { readonly soft: number; readonly hard: number } | number>>
  readonly restart?: string
}

export interface ComposeFile {
  readonly services: Readonly<Record<string, ComposeService>>
  readonly volumes?: Readonly<Record<string, unknown>>
}

/** compose.yaml as the engine reads it: anchors and merge keys (`<<: *mongo`) resolved. */
export const readComposeFile = (): ComposeFile => parse(readFileSync(join(ROOT, 'compose.yaml'), 'utf8'), { merge: true }) as ComposeFile

/** A service of the compose file; fails the test when it is not there. */
export const composeService = (compose: ComposeFile, name: string): ComposeService => {
  const service = compose.services[name]
  if (service === undefined) throw new Error(`compose.yaml has no service named ${name}`)
  return service
}

/**
 * A service's environment as the engine gives it, interpolated from `shell` (the variables set
 * where `docker compose` runs): `${NAME:-default}` and `${NAME-default}` take their default when
 * NAME is unset (or, with the colon, empty); `${NAME:?message}` and `${NAME?message}` refuse,
 * as compose refuses to start, with an error naming NAME and the message.
 */
export const environmentOf = (service: ComposeService, shell: Readonly<Record<string, string>> = {}): Record<string, string> =>
  Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([name, value]) => [
      name,
      String(value).replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(:?)([-?])([^}]*)\}/g, (_, variable: string, colon: string, kind: string, text: string) => {
        const set = shell[variable]
        const missing = set === undefined || (colon === ':' && set === '')
        if (!missing) return set
        if (kind === '-') return text
        throw new Error(`compose refuses to start: ${variable}: ${text}`)
      }),
    ]),
  )

/** A compose duration (`30s`, `1m30s`, `500ms`) in milliseconds. */
export const durationMs = (text: string): number => {
  const units: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)]
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) throw new Error(`not a compose duration: ${text}`)
  return parts.reduce((sum, [, amount = '0', unit = 's']) => sum + Number(amount) * (units[unit] ?? 0), 0)
}
