import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { MongoClient } from 'mongodb'
import { clientOptionsFor, resolveTimeouts } from '../../../../adapters/mongodb/client-options.js'
import { openMongoPlantStore } from '../../../../adapters/mongodb/index.js'

// The driver exports no list of the options it accepts; its connection string parser keeps one
// (the keys it checks every given option against), read here and nowhere in shipped code.
const driverOptions = (): ReadonlyArray<string> => {
  const { OPTIONS } = createRequire(import.meta.url)('mongodb/lib/connection_string.js') as { OPTIONS: Record<string, unknown> }
  return Object.keys(OPTIONS)
}

const page = readFileSync(new URL('../../../../docs/mongodb.md', import.meta.url), 'utf8')

// The rows of the table "Every option the driver accepts": the options each names, and what it says.
const rows = (): ReadonlyArray<{ readonly options: ReadonlyArray<string>; readonly says: string }> => {
  const section = page.slice(page.indexOf('### Every option the driver accepts'))
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [, names = '', says = ''] = line.split(' | ').length > 1 ? /^\| (.*?) \| (.*) \|$/.exec(line) ?? [] : []
      return { options: [...names.matchAll(/`([^`]+)`/g)].map(([, name]) => name as string), says }
    })
}

const rowOf = (option: string) => rows().find(({ options }) => options.includes(option))

describe('docs/mongodb.md: every option the driver accepts', function () {
  it('has a row for each option the driver accepts, and names none it does not', function () {
    const documented = rows().flatMap(({ options }) => options)
    expect([...documented].sort()).to.deep.equal([...driverOptions()].sort())
  })

  it('names each option in one row only', function () {
    const documented = rows().flatMap(({ options }) => options)
    expect(documented.filter((name, index) => documented.indexOf(name) !== index)).to.deep.equal([])
  })

  it('the options it says are set unless named are the ones the adapter sets', function () {
    const set = clientOptionsFor('mongodb://db.example', resolveTimeouts())
    const named = rowOf('appName')?.options ?? []
    expect(rowOf('appName')?.says).to.match(/^set unless the string names them/)
    expect(set).to.include.keys('retryWrites', 'serverSelectionTimeoutMS', 'connectTimeoutMS', 'appName', 'writeConcern')
    for (const option of ['retryWrites', 'serverSelectionTimeoutMS', 'connectTimeoutMS', 'appName', 'w', 'journal']) expect(named, option).to.include(option)
    // Named in the string, each is left to it.
    for (const [option, value] of [['retryWrites', 'false'], ['serverSelectionTimeoutMS', '1234'], ['connectTimeoutMS', '99'], ['appName', 'mine']] as const) {
      const uri = `mongodb://db.example/?${option}=${value}`
      expect(String(new MongoClient(uri, clientOptionsFor(uri, resolveTimeouts())).options[option]), option).to.equal(value)
    }
  })

  it('the options it says are refused are refused where they would break a promise', function () {
    expect(rowOf('raw')?.says).to.match(/^refused where they would break a promise/)
    const refusing: Readonly<Record<string, string>> = {
      compressors: 'zlib',
      promoteLongs: 'false',
      promoteValues: 'false',
      raw: 'true',
      socketTimeoutMS: '1',
    }
    expect(Object.keys(refusing).sort()).to.deep.equal([...(rowOf('raw')?.options ?? [])].sort())
    for (const [option, value] of Object.entries(refusing)) {
      const opened = openMongoPlantStore({ uri: `mongodb://db.example/?${option}=${value}`, dbName: 'refused' })
      if (E.isRight(opened)) {
        void opened.right.close()
        expect.fail(`${option}=${value} was accepted`)
      }
      expect(opened.left.message, option).to.include(`${option}=${value} cannot be used`)
    }
  })
})
