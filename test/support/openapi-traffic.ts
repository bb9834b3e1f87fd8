import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import type { OpenApiDocument } from '../../adapters/http/index.js'

/** One answer as a client saw it, and the request it answered (no path: the request line was unreadable). */
export interface Exchange {
  readonly method: string
  readonly path: string | undefined
  readonly status: number
  readonly header: (name: string) => string | null
  readonly body: string
}

/**
 * What the document says of an answer: `key` names the documented answer it is (for the coverage
 * check: an operation id or an extension, and the status), `problems` what in it the document
 * does not describe (empty when it matches), `example` the Error body it carried.
 */
export interface Verdict {
  readonly key: string
  readonly problems: ReadonlyArray<string>
  readonly errorBody?: string
}

interface Response {
  readonly description?: string
  readonly headers?: Record<string, { required?: boolean; schema?: object }>
  readonly content?: Record<string, { schema?: object; example?: unknown; examples?: Record<string, { value?: unknown }> }>
}
type Responses = Readonly<Record<string, Response | { $ref: string }>>
type Operation = { readonly operationId?: string; readonly responses?: Responses }
type PathItem = Readonly<Record<string, unknown>> & { readonly 'x-other-methods-responses'?: Responses }

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

/**
 * Checks answers against an OpenAPI document with a JSON Schema 2020-12 validator (ajv, with the
 * `u` flag on patterns as JSON Schema requires): the status must be documented for the path and
 * method, every required header present and matching its schema, the media type documented and
 * the body matching its schema. Answers no operation owns come from the document's extensions:
 * `x-other-methods-responses` (a method the path does not serve) and `x-unknown-path-responses`.
 */
export const makeTrafficChecker = (document: OpenApiDocument) => {
  const ajv = schemaValidatorFor(document)
  const compiled = new Map<object, ValidateFunction>()
  const validatorOf = (schema: object): ValidateFunction => {
    const known = compiled.get(schema)
    if (known !== undefined) return known
    // Schemas refer to `#/components/schemas/X`: resolve them against the document's components.
    const validate = ajv.compile({ $id: `answer-${compiled.size}.json`, ...rebase(schema) })
    compiled.set(schema, validate)
    return validate
  }

  const resolve = (response: Response | { $ref: string }): Response => {
    if (!('$ref' in response)) return response
    const name = response.$ref.replace('#/components/responses/', '')
    const found = document.components.responses[name] as Response | undefined
    if (found === undefined) throw new Error(`dangling reference ${response.$ref}`)
    return found
  }

  /** The responses that can answer a request, and the name of what answers it. */
  const answerersOf = (method: string, path: string | undefined): { name: string; responses: Responses } => {
    const item = path === undefined ? undefined : (document.paths[path] as unknown as PathItem | undefined)
    if (item === undefined) return { name: 'unknown path', responses: document['x-unknown-path-responses'] as Responses }
    const lower = method.toLowerCase()
    // HEAD is GET without a body (RFC 9110 section 9.3.2) where the document lists no HEAD.
    const operation = (item[lower] ?? (lower === 'head' ? item['get'] : undefined)) as Operation | undefined
    if (operation !== undefined) return { name: operation.operationId ?? `${method} ${path}`, responses: operation.responses ?? {} }
    const firstId = METHODS.map((m) => (item[m] as Operation | undefined)?.operationId).find((id) => id !== undefined)
    return { name: `other methods beside ${firstId}`, responses: item['x-other-methods-responses'] ?? {} }
  }

  return (exchange: Exchange): Verdict => {
    const { name, responses } = answerersOf(exchange.method, exchange.path)
    const key = `${name} ${exchange.status}`
    const documented = responses[String(exchange.status)]
    const where = `${exchange.method} ${exchange.path ?? '(unreadable request line)'} answered ${exchange.status}`
    if (documented === undefined) {
      return { key, problems: [`${where}: the document lists no ${exchange.status} for ${name}`] }
    }
    const response = resolve(documented)
    const problems: Array<string> = []
    for (const [header, { required, schema }] of Object.entries(response.headers ?? {})) {
      const value = exchange.header(header)
      if (value === null) {
        if (required === true) problems.push(`${where}: required header ${header} is missing`)
      } else if (schema !== undefined && !validatorOf(schema)(simpleStyle(schema, value))) {
        problems.push(`${where}: header ${header}: ${JSON.stringify(value)} does not match ${JSON.stringify(schema)}`)
      }
    }
    const bodyless = exchange.method.toUpperCase() === 'HEAD'
    if (response.content === undefined) {
      if (exchange.body !== '') problems.push(`${where}: the document describes no body, yet one came`)
      return { key, problems }
    }
    const mediaType = (exchange.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
    const media = response.content[mediaType]
    if (media === undefined) {
      problems.push(`${where}: Content-Type ${JSON.stringify(mediaType)} is not one of ${Object.keys(response.content).join(', ')}`)
      return { key, problems }
    }
    if (bodyless || media.schema === undefined) return { key, problems }
    // A JSON media type is read as JSON; any other (the /docs page's text/html) as the text it is.
    let body: unknown = exchange.body
    if (mediaType === 'application/json' || mediaType.endsWith('+json')) {
      try {
        body = JSON.parse(exchange.body)
      } catch {
        problems.push(`${where}: the body is not JSON: ${exchange.body.slice(0, 200)}`)
        return { key, problems }
      }
    }
    const validate = validatorOf(media.schema)
    if (!validate(body)) {
      problems.push(`${where}: the body ${exchange.body.slice(0, 200)} does not match: ${ajv.errorsText(validate.errors)}`)
    }
    const isError = typeof body === 'object' && body !== null && 'message' in body && 'error' in body
    return isError ? { key, problems, errorBody: JSON.stringify(body) } : { key, problems }
  }
}

/**
 * A JSON Schema 2020-12 validator (ajv, strict, with the `u` flag on patterns as JSON Schema
 * requires) that knows the document's schemas as `openapi.json#/components/schemas/<name>`.
 */
export const schemaValidatorFor = (document: OpenApiDocument): Ajv2020 => {
  const ajv = new Ajv2020({ strict: true, allErrors: true, unicodeRegExp: true })
  ajv.addKeyword('components')
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 })
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 63) && n < 2 ** 63 })
  ajv.addSchema({ $id: 'openapi.json', components: { schemas: document.components.schemas } })
  return ajv
}

// A header value as OpenAPI's simple style reads it: a number where the schema asks for one.
const simpleStyle = (schema: { type?: unknown }, value: string): unknown =>
  (schema.type === 'integer' || schema.type === 'number') && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value

// A schema taken out of the document, with its local references pointed back into it.
const rebase = (schema: object): object =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/')) as object

/**
 * Every answer the document describes, by the keys the checker gives, and every Error example it
 * shows: what the whole test suite must produce at least once.
 */
export const documentedAnswers = (document: OpenApiDocument): { keys: Set<string>; examples: Set<string> } => {
  const keys = new Set<string>()
  const examples = new Set<string>()
  const collect = (name: string, responses: Responses | undefined) => {
    for (const [status, response] of Object.entries(responses ?? {})) {
      keys.add(`${name} ${status}`)
      const resolved =
        '$ref' in response
          ? (document.components.responses[response.$ref.replace('#/components/responses/', '')] as Response)
          : response
      for (const media of Object.values(resolved.content ?? {})) {
        const values = [media.example, ...Object.values(media.examples ?? {}).map((example) => example.value)]
        for (const value of values) {
          if (typeof value === 'object' && value !== null && 'message' in value) examples.add(JSON.stringify(value))
        }
      }
    }
  }
  for (const item of Object.values(document.paths) as unknown as ReadonlyArray<PathItem>) {
    // A HEAD answer is its GET answer without the body: producing the GET's answers covers it.
    const ids = METHODS.filter((m) => m !== 'head')
      .map((m) => item[m] as Operation | undefined)
      .filter((op) => op !== undefined)
    for (const operation of ids) collect(operation.operationId ?? '', operation.responses)
    collect(`other methods beside ${ids[0]?.operationId}`, item['x-other-methods-responses'])
  }
  collect('unknown path', document['x-unknown-path-responses'] as Responses)
  return { keys, examples }
}
