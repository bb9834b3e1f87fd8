// Checks of the numbers an embedder hands an adapter, made once, when the adapter is built. Any
// adapter may import it; it imports nothing.
export { MAX_TIMER_MS, wholeNumberOption } from './whole-number.js'
