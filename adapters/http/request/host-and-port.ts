import { isIPv6 } from 'node:net'

// The longest Host that can be one: a name of 255 characters, a colon and five digits. Checked
// first, so a field as long as the header limit lets it be is refused without being read.
const MAX_HOST_AND_PORT_LENGTH = 255 + 1 + 5
const MAX_NAME_LENGTH = 255
const MAX_LABEL_LENGTH = 63
const MAX_PORT = 65_535

// RFC 3986's host, then an optional port: an IPv6 address in brackets, or a registered name or
// IPv4 address (percent escapes left as they are); empty is allowed (RFC 9112 section 3.2).
const HOST_AND_PORT = /^(?:\[([0-9A-Fa-f:.]+)\]|([0-9A-Za-z._~!$&'()*+,;=%-]*))(?::([0-9]*))?$/

/**
 * Whether a Host field is a host and an optional port that could name something (RFC 9112
 * section 3.2, RFC 3986 section 3.2.2): in brackets, an IPv6 address (`[::1]`, not `[zz]`; no
 * zone, which a browser never sends, and no IPvFuture, which nothing uses); otherwise a name of
 * at most 255 characters in labels of at most 63, as DNS has them; a port of at most five digits,
 * 65535 at most. A name or a port past these bounds names no server this one could be.
 */
export const isHostAndPort = (field: string): boolean => {
  if (field.length > MAX_HOST_AND_PORT_LENGTH) return false
  const match = HOST_AND_PORT.exec(field)
  if (match === null) return false
  const [, address, name, port] = match
  return (
    (address === undefined || isIPv6(address)) &&
    (name === undefined || isName(name)) &&
    (port === undefined || (port.length <= 5 && Number(port) <= MAX_PORT))
  )
}

const isName = (name: string): boolean => {
  if (name.length > MAX_NAME_LENGTH) return false
  let start = 0
  for (let dot = name.indexOf('.'); dot !== -1; dot = name.indexOf('.', start)) {
    if (dot - start > MAX_LABEL_LENGTH) return false
    start = dot + 1
  }
  return name.length - start <= MAX_LABEL_LENGTH
}
