import type { Problem } from './error-response.js'

/** How the request log tells of an answer: its level, its words, and how much of the cause it shows. */
export interface RequestLogLine {
  readonly level: 'info' | 'warn' | 'error'
  readonly message: string
  /** `brief`: the cause's message; `whole`: its whole description, stack included. */
  readonly cause?: 'brief' | 'whole'
}

/**
 * The one place where an answer's severity is decided, beside the one that gives it its status. An
 * outage being reported (503) is expected while it lasts: a warning with the cause's message, not
 * a stack per request. Storage refusing the service's configuration is an error an operator must
 * correct, named with its cause. A store that is full (507) is the bound doing its work. A token
 * signed with a key nobody publishes is a refusal (401) like any other, named apart so that a
 * forgery or a missed rotation can be told from a bad token. Any other 5xx is a defect worth its
 * whole description.
 */
export const requestLogLine = (problem: Problem | undefined, status: number): RequestLogLine => {
  switch (problem?._tag) {
    case 'ShuttingDown':
      return { level: 'info', message: 'request refused: shutting down' }
    case 'DecodersBusy':
      return { level: 'warn', message: 'request refused: compressed bodies waiting too long for a decoder' }
    case 'DeadlinePassed':
      return { level: 'warn', message: 'request refused: its body was not in by its deadline' }
    case 'StorageUnavailable':
      return problem.configurationFault === undefined
        ? { level: 'warn', message: 'request refused: dependency unavailable', cause: 'brief' }
        : { level: 'error', message: `request refused: storage configuration fault: ${problem.configurationFault}`, cause: 'brief' }
    case 'AuthenticationUnavailable':
      return { level: 'warn', message: 'request refused: dependency unavailable', cause: 'brief' }
    case 'Unauthenticated':
      // Said briefly: the cause names only an excerpt of what the client sent, never all of it.
      return problem.reason === 'UnknownKey'
        ? { level: 'info', message: 'request refused: unknown signing key', cause: 'brief' }
        : { level: 'info', message: 'request' }
    case 'StorageFull':
      return { level: 'warn', message: 'request refused: storage full' }
    default:
      return status >= 500 ? { level: 'error', message: 'request failed', cause: 'whole' } : { level: 'info', message: 'request' }
  }
}
