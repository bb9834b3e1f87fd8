/**
 * Runs a check that pins down a reported, not yet fixed bug. While the bug stands the check fails
 * and the test is marked pending with the report printed, so the suite stays honest without going
 * red; once the bug is fixed the check passes and the test counts as an ordinary pass (then drop
 * this wrapper).
 */
export const pendingWhileBugStands = async (
  context: Mocha.Context,
  report: string,
  check: () => void | Promise<void>,
): Promise<void> => {
  try {
    await check()
  } catch (failure) {
    const why = failure instanceof Error ? failure.message : String(failure)
    console.log(`      known bug, reported to the lead: ${report}\n        (${why})`)
    context.skip()
  }
}
