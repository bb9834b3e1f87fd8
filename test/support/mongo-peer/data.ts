// What the peer keeps in memory: collections of documents under a key equal for ids mongod
// would call equal, and, per logical session, which statements of a retryable write have run.
import type { Document } from 'bson'
import { keyOf } from './values.js'

/** A stored document and the place in the oplog of the write that stored it (replication.ts). */
export interface StoredDocument {
  readonly fields: Document
  readonly op: number
}

export type Collection = Map<string, StoredDocument>

/** The databases of the peer, addressed by namespace (`db.collection`). */
export interface PeerData {
  readonly find: (namespace: string) => Collection | undefined
  readonly findOrCreate: (namespace: string) => Collection
  readonly drop: (namespace: string) => boolean
  readonly dropDatabase: (db: string) => void
  /** Every stored document of a namespace, in the order of insertion. */
  readonly documents: (namespace: string) => Document[]
}

export const makePeerData = (): PeerData => {
  const collections = new Map<string, Collection>()
  return {
    find: (namespace) => collections.get(namespace),
    findOrCreate: (namespace) => {
      const existing = collections.get(namespace)
      if (existing !== undefined) return existing
      const created: Collection = new Map()
      collections.set(namespace, created)
      return created
    },
    drop: (namespace) => collections.delete(namespace),
    dropDatabase: (db) => {
      for (const namespace of [...collections.keys()]) {
        if (namespace.startsWith(`${db}.`)) collections.delete(namespace)
      }
    },
    documents: (namespace) => [...(collections.get(namespace)?.values() ?? [])].map((stored) => stored.fields),
  }
}

/** The statements of one retryable write (one lsid and txnNumber) that have already run. */
export interface RetryRecord {
  readonly txnNumber: bigint
  readonly executed: Set<number>
}

/**
 * Retryable-write bookkeeping after mongod's `config.transactions`: one record per session, for
 * its latest txnNumber. A retry (same lsid and txnNumber) finds the statements that already ran;
 * an older txnNumber is refused, as mongod refuses it with TransactionTooOld.
 */
export const makeRetryRecords = () => {
  const bySession = new Map<string, RetryRecord>()
  return {
    recordFor: (lsid: unknown, txnNumber: bigint): RetryRecord | 'TooOld' => {
      const session = keyOf(lsid)
      const current = bySession.get(session)
      if (current !== undefined && current.txnNumber === txnNumber) return current
      if (current !== undefined && current.txnNumber > txnNumber) return 'TooOld'
      const fresh = { txnNumber, executed: new Set<number>() }
      bySession.set(session, fresh)
      return fresh
    },
  }
}
export type RetryRecords = ReturnType<typeof makeRetryRecords>
