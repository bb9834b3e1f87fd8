// The shape of the OpenAPI document the HTTP adapter serves: openapi3-ts's types and this
// service's two extensions.
import type * as OpenApi from 'openapi3-ts/oas31'

/** The methods an OpenAPI path item can describe. */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

/**
 * Answers no operation owns, in extensions (a 405 or a 404 has no operation of its own; describing
 * one as an operation would give generated clients methods that can only fail):
 * - `x-other-methods-responses` on each path item: what a method the path does not serve gets (405);
 * - `x-unknown-path-responses` on the document: what a request to a path `paths` does not list
 *   gets (404), or a request Node's HTTP parser refused before any path was read.
 */
export interface PlantStoreExtensions {
  readonly 'x-unknown-path-responses': OpenApi.ResponsesObject
}

/** The extension of each path item, beside its operations. */
export interface OtherMethods {
  readonly 'x-other-methods-responses': OpenApi.ResponsesObject
}

/** The OpenAPI 3.1 document of the service, with the extensions above. */
export type OpenApiDocument = OpenApi.OpenAPIObject &
  PlantStoreExtensions & {
    readonly paths: OpenApi.PathsObject
    readonly components: OpenApi.ComponentsObject & {
      readonly schemas: Readonly<Record<string, OpenApi.SchemaObject>>
      readonly responses: Readonly<Record<string, OpenApi.ResponseObject>>
    }
  }
