export { makeStaticTokenAuthenticator } from './authenticator.js'
