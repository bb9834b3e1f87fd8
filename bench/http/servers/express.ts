// Reference: Express 5 with express.json().
import express from 'express'
import { errorBody, HOST, isAuthorized, isNewPlant, makeReferenceStore, readSettings } from './reference-kit.js'

const { port, token, bodyLimitBytes } = readSettings(process.env)
const store = makeReferenceStore()

const app = express()
app.post(
  '/plants',
  (req, res, next) => {
    if (!isAuthorized(req.get('Authorization'), token)) {
      res.status(401).type('application/json').send(errorBody(401, 'Send a valid token.'))
    } else if (req.is('application/json') === false) {
      res.status(415).type('application/json').send(errorBody(415, 'Send application/json.'))
    } else next()
  },
  express.json({ limit: bodyLimitBytes }),
  (req, res) => {
    const value: unknown = req.body
    if (!isNewPlant(value)) {
      res.status(400).type('application/json').send(errorBody(400, 'Invalid NewPlant.'))
      return
    }
    const stored = store(value)
    if (stored === undefined) res.status(409).type('application/json').send(errorBody(409, 'Another plant has this id.'))
    else res.json(stored)
  },
)
app.listen(port, HOST)
