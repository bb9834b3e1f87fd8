// How the modules that use an optional peer dependency load it: a missing one fails the import of
// its subpath with a message naming it, the subpath, and the npm command. Behind an index of its
// own: it needs Node's module loader, which the rest of the wire (the client's, in a browser) must
// not import.
export { installedPeerFile, loadPeers, missingPeersMessage, peerFile } from './load-peers.js'
export { SUBPATH_PEERS } from './subpath-peers.js'
export type { PeeredSubpath } from './subpath-peers.js'
