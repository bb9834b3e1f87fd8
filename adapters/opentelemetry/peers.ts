import type * as OpenTelemetry from '@opentelemetry/api'
import { loadPeers } from '../../wire/peers/index.js'

// The OpenTelemetry API's values this adapter uses, loaded while this module is evaluated
// (wire/peers/ says why not by static imports).
const { '@opentelemetry/api': api } = loadPeers<{ readonly '@opentelemetry/api': typeof OpenTelemetry }>('plant-store/adapters/opentelemetry')

export const { context, defaultTextMapGetter, propagation, ProxyTracerProvider, SpanKind, SpanStatusCode, trace } = api
