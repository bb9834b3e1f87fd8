import type * as PromClient from 'prom-client'
import { loadPeers } from '../../wire/peers/index.js'

// prom-client's values this adapter uses, loaded while this module is evaluated (wire/peers/ says
// why not by static imports). A class used as a type too is named as a type here.
const { 'prom-client': client } = loadPeers<{ readonly 'prom-client': typeof PromClient }>('plant-store/adapters/prometheus')

export const { collectDefaultMetrics, Counter, Histogram, Registry } = client

export type Counter<Labels extends string> = PromClient.Counter<Labels>
export type Histogram<Labels extends string> = PromClient.Histogram<Labels>
export type Registry = PromClient.Registry
