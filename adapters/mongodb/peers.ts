import type * as Driver from 'mongodb'
import { loadPeers } from '../../wire/peers/index.js'

// The MongoDB driver's values this adapter uses, loaded while this module is evaluated (wire/peers/
// says why not by static imports): the driver's own classes, the very ones an embedder's import of
// it gives, which the errors it throws are instances of. A class used as a type too is named as a
// type here.
const { mongodb: driver } = loadPeers<{ readonly mongodb: typeof Driver }>('plant-store/adapters/mongodb')

export const {
  BSON,
  MongoBulkWriteError,
  MongoClient,
  MongoClientClosedError,
  MongoCompatibilityError,
  MongoError,
  MongoErrorLabel,
  MongoNetworkError,
  MongoNetworkTimeoutError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerClosedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoStalePrimaryError,
  MongoTopologyClosedError,
  MongoWriteConcernError,
  ReadConcern,
  ReadPreference,
  WriteConcern,
} = driver

export type MongoBulkWriteError = Driver.MongoBulkWriteError
export type MongoClient = Driver.MongoClient
export type MongoCompatibilityError = Driver.MongoCompatibilityError
export type MongoNetworkError = Driver.MongoNetworkError
export type MongoServerError = Driver.MongoServerError
