import type { Attributes, Span, Tracer } from '@opentelemetry/api'
import type { Either } from 'fp-ts/lib/Either.js'
import type { TaskEither } from 'fp-ts/lib/TaskEither.js'
import { context, SpanKind, SpanStatusCode, trace } from './peers.js'

/** What a span says of a task's answer: its attributes, and whether the answer is a failure of the service. */
export interface SpanVerdict {
  readonly attributes: Attributes
  readonly failed: string | undefined
}

/**
 * The same task, run inside a span of its own: a child of the span current when it runs (the
 * request's), current itself while the task runs, ended when it settles. A rejection (a defect)
 * is recorded on the span and passes through, as does every answer. A span that records nothing
 * (no SDK registered, or sampled out) is not made current: the task runs as it would untraced,
 * and what it starts is parented to the span that is current, on every call of a port.
 */
export const tracedTask =
  <L, R>(tracer: Tracer, name: string, task: TaskEither<L, R>, verdict: (answer: Either<L, R>) => SpanVerdict): TaskEither<L, R> =>
  () => {
    const span = tracer.startSpan(name, { kind: SpanKind.INTERNAL })
    if (!span.isRecording()) {
      span.end()
      return task()
    }
    return context.with(trace.setSpan(context.active(), span), () =>
      task().then(
        (answer) => {
          const { attributes, failed } = verdict(answer)
          span.setAttributes(attributes)
          if (failed !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: failed })
          span.end()
          return answer
        },
        (defect: unknown) => {
          endWithDefect(span, defect)
          throw defect
        },
      ),
    )
  }

const endWithDefect = (span: Span, defect: unknown): void => {
  if (defect instanceof Error) span.recordException(defect)
  span.setStatus({ code: SpanStatusCode.ERROR, message: 'defect' })
  span.end()
}
