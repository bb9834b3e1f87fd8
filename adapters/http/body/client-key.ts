import { isIPv6 } from 'node:net'

/**
 * The client whose turn a body waits for: its IPv4 address, or the /64 network of its IPv6
 * address (the smallest block one subscriber is handed: counted per address, one host could
 * take a turn for each address it picks at will). An IPv4 address mapped into IPv6 is that
 * IPv4 address.
 */
export const clientKeyOf = (address: string | undefined): string => {
  if (address === undefined || !isIPv6(address)) return address ?? ''
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped?.[1] !== undefined) return mapped[1]
  const [head = '', tail] = (address.split('%')[0] ?? '').split('::')
  const groupsOf = (text: string): string[] => (text === '' ? [] : text.split(':'))
  const left = groupsOf(head)
  const right = tail === undefined ? [] : groupsOf(tail)
  // An embedded IPv4 tail counts as two groups; `::` stands for the zeros between.
  const width = (right.at(-1) ?? left.at(-1) ?? '').includes('.') ? 7 : 8
  const zeros = Array.from({ length: Math.max(0, width - left.length - right.length) }, () => '0')
  const groups = [...left, ...zeros, ...right].slice(0, 4)
  return `${groups.map((group) => (group.includes('.') ? group : (Number.parseInt(group, 16) || 0).toString(16))).join(':')}::/64`
}
