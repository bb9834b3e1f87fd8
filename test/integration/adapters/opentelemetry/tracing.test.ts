import { expect } from 'chai'
import { SpanKind, SpanStatusCode } from '@opentelemetry/api'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { makeInMemoryPlantStore } from '../../../../adapters/in-memory/index.js'
import { openTelemetryRequestTracer, traceAuthenticator, tracePlantStore, tracerProviderRegistered } from '../../../../adapters/opentelemetry/index.js'
import { makeStaticTokenAuthenticator } from '../../../../adapters/static-tokens/index.js'
import { postPlant, startTestApp, TOKEN, type TestApp } from '../../../support/http-app.js'
import { registerInMemorySdk, type RegisteredSdk } from '../../../support/opentelemetry.js'
import { unavailablePlantStore } from '../../../../testing/index.js'

// The service's spans reach the SDK a host application registers, through @opentelemetry/api:
// the request, and below it authentication and storage, in the caller's trace when it sent a
// traceparent. With no SDK registered, nothing is recorded and requests are answered as ever.

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736'
const PARENT_ID = '00f067aa0ba902b7'
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_ID}-01`

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
    const named = (spans: ReadonlyArray<ReadableSpan>, name: string): ReadableSpan => {
      const found = spans.filter((span) => span.name === name)
      expect(found.map((span) => span.name), `spans named ${name} among ${spans.map((span) => span.name).join(', ')}`).to.have.lengthOf(1)
      return found[0] as ReadableSpan
    }

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
