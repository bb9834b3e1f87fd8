/** The body limit the test apps run with, unless a test names another. */
export const TEST_BODY_LIMIT_BYTES = 64 * 1024
