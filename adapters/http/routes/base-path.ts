/**
 * Whether a base path is a plain prefix such as `/api/v1`: segments of RFC 3986 unreserved
 * characters, no trailing slash ('' for none). The router reads paths as patterns (`:name`, `*`,
 * `(...)`), so anything else could match paths it should not, or fail when the app is built.
 */
export const isLiteralBasePath = (path: string): boolean => /^(\/[A-Za-z0-9\-._~]+)*$/.test(path)
