// The tests use the Either assertions the kit ships (plant-store/testing): one definition.
export { expectLeftTag, expectRight } from '../../testing/index.js'
