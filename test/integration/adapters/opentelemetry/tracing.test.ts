import { expect } from 'chai'
import { SpanKind, SpanStatusCode, trace, TraceFlags, type TextMapPropagator } from '@opentelemetry/api'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { makeInMemoryPlantStore } from '../../../../adapters/in-memory/index.js'
import { openTelemetryRequestTracer, traceAuthenticator, tracePlantStore, tracerProviderRegistered } from '../../../../adapters/opentelemetry/index.js'
import { makeStaticTokenAuthenticator } from '../../../../adapters/static-tokens/index.js'
import { postPlant, startTestApp, TOKEN, type TestApp } from '../../../support/http-app.js'
import { registerInMemorySdk, type RegisteredSdk } from '../../../support/opentelemetry.js'
import { unavailablePlantStore } from '../../../../testing/index.js'

// The service's spans reach the SDK a host application registers, through @opentelemetry/api:
// the request, and below it authentication and storage, in the caller's trace as the propagator
// the host registered reads it from the request's headers. With no SDK registered, nothing is
// recorded and requests are answered as ever.

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736'
const PARENT_ID = '00f067aa0ba902b7'
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_ID}-01`

const B3_TRACE_ID = '80f198ee56343ba864fe8b2a57d3eff7'
const B3_SPAN_ID = 'e457b5a2e4d86bd1'

const firstOf = (value: string | ReadonlyArray<string> | undefined): string | undefined => (typeof value === 'string' ? value : value?.[0])

// A propagator of B3's multiple-header form (X-B3-TraceId, X-B3-SpanId, X-B3-Sampled), as a host
// that chose B3 registers one: enough to tell the parent it reads from a traceparent's.
const b3StylePropagator: TextMapPropagator = {
  fields: () => ['x-b3-traceid', 'x-b3-spanid', 'x-b3-sampled'],
  inject: () => {},
  extract: (active, carrier, getter) => {
    const traceId = firstOf(getter.get(carrier, 'x-b3-traceid'))
    const spanId = firstOf(getter.get(carrier, 'x-b3-spanid'))
    if (traceId === undefined || spanId === undefined) return active
    const traceFlags = firstOf(getter.get(carrier, 'x-b3-sampled')) === '0' ? TraceFlags.NONE : TraceFlags.SAMPLED
    return trace.setSpanContext(active, { traceId, spanId, traceFlags, isRemote: true })
  },
}

const tracedApp = (): Promise<TestApp> =>
  startTestApp({
    tracer: openTelemetryRequestTracer(),
    plantStore: tracePlantStore(makeInMemoryPlantStore()),
    authenticator: traceAuthenticator(makeStaticTokenAuthenticator([TOKEN])),
  })

const lineOf = (app: TestApp, requestId: string): Record<string, unknown> | undefined =>
  app.log.lines.find((line) => line['requestId'] === requestId && line['msg'] === 'request')

describe('OpenTelemetry spans', function () {
  it('tells whether a host registered a tracer provider, so a composition root can leave the decorators out', async function () {
    expect(tracerProviderRegistered(), 'before').to.equal(false)
    const sdk = registerInMemorySdk()
    try {
      expect(tracerProviderRegistered(), 'registered').to.equal(true)
    } finally {
      await sdk.unregister()
    }
    expect(tracerProviderRegistered(), 'unregistered').to.equal(false)
  })

  describe('with no SDK registered', function () {
    it('records nothing and answers as ever; the log line still carries the traceparent', async function () {
      const app = await tracedApp()
      try {
        const answer = await postPlant(app.url, '{"id":1,"name":"x"}', { traceparent: TRACEPARENT, 'X-Request-Id': 'no-sdk' })
        expect(answer.status).to.equal(200)
        await answer.arrayBuffer()
        const line = lineOf(app, 'no-sdk')
        expect(line).to.include({ traceId: TRACE_ID })
        expect(line).to.not.have.property('spanId')
      } finally {
        await app.close()
      }
    })
  })

  const named = (spans: ReadonlyArray<ReadableSpan>, name: string): ReadableSpan => {
    const found = spans.filter((span) => span.name === name)
    expect(found.map((span) => span.name), `spans named ${name} among ${spans.map((span) => span.name).join(', ')}`).to.have.lengthOf(1)
    return found[0] as ReadableSpan
  }

  // An SDK registered before each test with the given propagator, or none, and an app traced by it.
  const useTracedApp = (propagator: TextMapPropagator | undefined): { readonly sdk: () => RegisteredSdk; readonly app: () => TestApp } => {
    let sdk: RegisteredSdk | undefined
    let app: TestApp | undefined
    beforeEach(async function () {
      sdk = registerInMemorySdk(propagator)
      app = await tracedApp()
    })
    afterEach(async function () {
      await app?.close()
      await sdk?.unregister()
    })
    return { sdk: () => sdk as RegisteredSdk, app: () => app as TestApp }
  }

  describe("the caller's trace context, as the propagator the host registered reads it", function () {
    const requestSpanOf = async (app: TestApp, sdk: RegisteredSdk, requestId: string, headers: Readonly<Record<string, string>>): Promise<ReadableSpan> => {
      const answer = await postPlant(app.url, '{"id":1,"name":"x"}', { ...headers, 'X-Request-Id': requestId })
      expect(answer.status).to.equal(200)
      await answer.arrayBuffer()
      const traceId = String(lineOf(app, requestId)?.['traceId'])
      return named(
        sdk.exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId),
        'POST /plants',
      )
    }

    describe('B3', function () {
      const { sdk, app } = useTracedApp(b3StylePropagator)

      it("makes the request a child of the B3 parent, and ignores a traceparent", async function () {
        const request = await requestSpanOf(app(), sdk(), 'b3', {
          'X-B3-TraceId': B3_TRACE_ID,
          'X-B3-SpanId': B3_SPAN_ID,
          'X-B3-Sampled': '1',
          traceparent: TRACEPARENT,
        })
        expect(request.spanContext().traceId).to.equal(B3_TRACE_ID)
        expect(request.parentSpanContext?.spanId).to.equal(B3_SPAN_ID)
        expect(request.parentSpanContext?.isRemote).to.equal(true)
        expect(sdk().exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === TRACE_ID)).to.deep.equal([])
      })
    })

    describe('W3C trace context', function () {
      const { sdk, app } = useTracedApp(new W3CTraceContextPropagator())

      it('makes the request a child of the traceparent, in its tracestate', async function () {
        const request = await requestSpanOf(app(), sdk(), 'w3c', { traceparent: TRACEPARENT, tracestate: 'vendor=value' })
        expect(request.spanContext().traceId).to.equal(TRACE_ID)
        expect(request.parentSpanContext?.spanId).to.equal(PARENT_ID)
        expect(request.parentSpanContext?.isRemote).to.equal(true)
        expect(request.spanContext().traceState?.serialize()).to.equal('vendor=value')
      })
    })

    describe('no propagator', function () {
      const { sdk, app } = useTracedApp(undefined)

      it('gives the request no remote parent, whatever it carries, and logs the trace of its own span', async function () {
        const request = await requestSpanOf(app(), sdk(), 'no-propagator', { traceparent: TRACEPARENT, 'X-B3-TraceId': B3_TRACE_ID, 'X-B3-SpanId': B3_SPAN_ID })
        expect(request.parentSpanContext).to.equal(undefined)
        expect(request.spanContext().traceId).to.not.be.oneOf([TRACE_ID, B3_TRACE_ID])
        expect(lineOf(app(), 'no-propagator')).to.include({ traceId: request.spanContext().traceId, spanId: request.spanContext().spanId })
      })
    })
  })

  // The Node SDK registers the W3C trace context propagator unless told otherwise.
  describe('with an SDK the host registered', function () {
    let sdk: RegisteredSdk
    let app: TestApp
    beforeEach(async function () {
      sdk = registerInMemorySdk(new W3CTraceContextPropagator())
      app = await tracedApp()
    })
    afterEach(async function () {
      await app.close()
      await sdk.unregister()
    })

    const spansOf = (traceId: string): ReadonlyArray<ReadableSpan> =>
      sdk.exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId)

    it("makes the request a child of the traceparent, and authentication and storage children of the request", async function () {
      const answer = await postPlant(app.url, '{"id":1,"name":"x"}', { traceparent: TRACEPARENT, 'X-Request-Id': 'traced' })
      expect(answer.status).to.equal(200)
      await answer.arrayBuffer()
      const spans = spansOf(TRACE_ID)
      expect(spans.map((span) => span.name)).to.have.members(['POST /plants', 'Authenticator.verify', 'PlantStore.insertUnlessExists'])
      const request = named(spans, 'POST /plants')
      expect(request.kind).to.equal(SpanKind.SERVER)
      expect(request.parentSpanContext?.spanId).to.equal(PARENT_ID)
      expect(request.parentSpanContext?.isRemote).to.equal(true)
      expect(request.attributes).to.include({ 'http.request.method': 'POST', 'http.route': '/plants', 'http.response.status_code': 200 })
      const requestSpanId = request.spanContext().spanId
      for (const name of ['Authenticator.verify', 'PlantStore.insertUnlessExists']) {
        expect(named(spans, name).parentSpanContext?.spanId, name).to.equal(requestSpanId)
      }
      expect(named(spans, 'Authenticator.verify').attributes).to.include({ 'plant_store.outcome': 'accepted' })
      expect(named(spans, 'PlantStore.insertUnlessExists').attributes).to.include({ 'plant_store.outcome': 'inserted' })
      expect(lineOf(app, 'traced')).to.include({ traceId: TRACE_ID, spanId: requestSpanId })
    })

    it('starts a trace of its own without a traceparent, or with an invalid one, and logs its id', async function () {
      for (const [id, requestId, headers] of [
        [1, 'no-traceparent', {}],
        [2, 'invalid-traceparent', { traceparent: `00-${TRACE_ID.toUpperCase()}-${PARENT_ID}-01` }],
      ] as const) {
        const answer = await postPlant(app.url, `{"id":${id},"name":"x"}`, { ...headers, 'X-Request-Id': requestId })
        expect(answer.status, requestId).to.equal(200)
        await answer.arrayBuffer()
        const traceId = lineOf(app, requestId)?.['traceId']
        expect(traceId, requestId).to.be.a('string').that.matches(/^[0-9a-f]{32}$/)
        expect(traceId, requestId).to.not.equal(TRACE_ID)
        const spans = spansOf(String(traceId))
        const request = named(spans, 'POST /plants')
        expect(request.parentSpanContext, requestId).to.equal(undefined)
        expect(named(spans, 'PlantStore.insertUnlessExists').parentSpanContext?.spanId, requestId).to.equal(request.spanContext().spanId)
      }
    })

    it('tells of a refused token as the check doing its work, not as an error', async function () {
      const refused = await postPlant(app.url, '{"id":1,"name":"x"}', { Authorization: 'Bearer not-the-token-0123456789', traceparent: TRACEPARENT })
      expect(refused.status).to.equal(401)
      await refused.arrayBuffer()
      const spans = spansOf(TRACE_ID)
      const verify = named(spans, 'Authenticator.verify')
      expect(verify.attributes).to.include({ 'plant_store.outcome': 'Unauthenticated' })
      expect(verify.status.code).to.not.equal(SpanStatusCode.ERROR)
      expect(named(spans, 'POST /plants').attributes).to.include({ 'http.response.status_code': 401 })
    })

    it('marks storage out of reach as an error, on its span and on the request (503)', async function () {
      await app.close()
      app = await startTestApp({
        tracer: openTelemetryRequestTracer(),
        plantStore: tracePlantStore(unavailablePlantStore(new Error('connection refused'))),
        authenticator: traceAuthenticator(makeStaticTokenAuthenticator([TOKEN])),
      })
      const answer = await postPlant(app.url, '{"id":1,"name":"x"}', { traceparent: TRACEPARENT })
      expect(answer.status).to.equal(503)
      await answer.arrayBuffer()
      const spans = spansOf(TRACE_ID)
      expect(named(spans, 'PlantStore.insertUnlessExists').status.code).to.equal(SpanStatusCode.ERROR)
      expect(named(spans, 'POST /plants').status.code).to.equal(SpanStatusCode.ERROR)
    })
  })
})
