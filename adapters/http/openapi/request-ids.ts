// The X-Request-Id header, stated once for every answer the document describes.
import type * as OpenApi from 'openapi3-ts/oas31'
import { REQUEST_ID_PATTERN } from '../context/request-context.js'
import { HTTP_METHODS, type OpenApiDocument } from './document-shape.js'

// Every answer carries X-Request-Id, whatever its status or path: stated once, here, for every
// response the document describes (a `$ref` response gets it where it is defined).
const REQUEST_ID_HEADER: OpenApi.HeaderObject = {
  description:
    'The id of this request, on every answer: the `X-Request-Id` the client sent when it is 1 to 128 ' +
    'characters of `A-Z a-z 0-9 - . _ ~ : / + = @`, a new one otherwise. Every log line the request causes carries it.',
  required: true,
  schema: { type: 'string', pattern: REQUEST_ID_PATTERN },
}

const withRequestId = (responses: OpenApi.ResponsesObject | undefined): OpenApi.ResponsesObject =>
  Object.fromEntries(
    Object.entries(responses ?? {}).map(([status, response]) => [
      status,
      '$ref' in response ? response : { ...response, headers: { ...response.headers, 'X-Request-Id': REQUEST_ID_HEADER } },
    ]),
  )

export const withRequestIds = (document: OpenApiDocument): OpenApiDocument => ({
  ...document,
  paths: Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => [
      path,
      {
        ...item,
        ...Object.fromEntries(
          HTTP_METHODS.flatMap((method) => {
            const operation = item[method]
            return operation === undefined ? [] : [[method, { ...operation, responses: withRequestId(operation.responses) }]]
          }),
        ),
        'x-other-methods-responses': withRequestId(item['x-other-methods-responses']),
      },
    ]),
  ),
  'x-unknown-path-responses': withRequestId(document['x-unknown-path-responses']),
  components: {
    ...document.components,
    responses: withRequestId(document.components.responses as OpenApi.ResponsesObject),
  },
})
