import { AssertionError } from 'node:assert'
import { ContractSkipped } from './suite.js'

// Every failure the kit reports starts with the rule it breaks, so a reader of a red run knows
// what the core relies on that the adapter does not give.

/** Runs a check; whatever fails inside it (an assertion, a rejection) is rethrown naming the rule. */
export const underRule = async (rule: string, statement: string, check: () => Promise<void>): Promise<void> => {
  try {
    await check()
  } catch (error) {
    if (error instanceof ContractSkipped) throw error
    const detail = error instanceof AssertionError ? error.message : `it threw instead: ${show(error)}`
    throw new AssertionError({ message: `${rule} broken: ${statement}\n  ${detail.split('\n').join('\n  ')}` })
  }
}

/** BigInts as `1n`, errors by name and message, everything else as JSON, for messages. */
export const show = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v instanceof Error ? { name: v.name, message: v.message } : v)) ??
  String(value)
