import { expect } from 'chai'
import { RETIRED_VARIABLES, SERVICE_VARIABLES } from '../../../../apps/server/config.js'
import { unknownVariables } from '../../../../apps/server/unknown-variables.js'

describe('variables that look like the service’s and are not read', function () {
  const named = (env: Record<string, string>) => unknownVariables(env, SERVICE_VARIABLES, RETIRED_VARIABLES)

  it('names a typo of a variable it reads, with the variable meant', function () {
    expect(named({ PORTT: '1', CORS_ORIGIN: 'x', port: '3000', BODY_LIMT: '1mb' })).to.deep.equal([
      { name: 'BODY_LIMT', didYouMean: 'BODY_LIMIT', noLongerRead: false },
      { name: 'CORS_ORIGIN', didYouMean: 'CORS_ORIGINS', noLongerRead: false },
      { name: 'PORTT', didYouMean: 'PORT', noLongerRead: false },
      { name: 'port', didYouMean: 'PORT', noLongerRead: false },
    ])
  })

  it('names a variable it no longer reads as such', function () {
    expect(named({ JSON_NUMBER_LIMIT: '40', JSON_DEPTH_LIMIT: '8', IN_MEMORY_MAX_BYTES: '1gb', LOG_BUFFER_LIMIT: '1mb' })).to.deep.equal([
      { name: 'IN_MEMORY_MAX_BYTES', didYouMean: undefined, noLongerRead: true },
      { name: 'JSON_DEPTH_LIMIT', didYouMean: undefined, noLongerRead: true },
      { name: 'JSON_NUMBER_LIMIT', didYouMean: undefined, noLongerRead: true },
      { name: 'LOG_BUFFER_LIMIT', didYouMean: undefined, noLongerRead: true },
    ])
  })

  it('names any PLANT_STORE_, JWT_ or MONGODB_ variable it does not read', function () {
    expect(named({ PLANT_STORE_DEBUG: '1', JWT_KEY: 'x', MONGODB_REPLICA_SET: 'rs0' }).map(({ name }) => name)).to.deep.equal([
      'JWT_KEY',
      'MONGODB_REPLICA_SET',
      'PLANT_STORE_DEBUG',
    ])
  })

  it('leaves alone every variable it reads, and the usual ones of a shell, a container or CI', function () {
    const env = Object.fromEntries(
      [
        ...SERVICE_VARIABLES,
        ...['PATH', 'HOME', 'HOSTNAME', 'PWD', 'OLDPWD', 'USER', 'SHELL', 'TERM', 'LANG', 'TZ', 'NODE_ENV', 'NODE_OPTIONS', 'CI'],
        ...['HTTP_PROXY', 'NO_PROXY', 'DOCKER_HOST', 'KUBERNETES_PORT', 'GITHUB_ACTIONS', 'npm_lifecycle_event', 'INIT_CWD'],
      ].map((name) => [name, 'x']),
    )
    expect(named(env)).to.deep.equal([])
  })
})
