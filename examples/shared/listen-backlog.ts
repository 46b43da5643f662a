/**
 * The accept queue of the example servers. Node listens with a backlog of
 * 511: when more clients connect at once than that while the event loop is
 * busy (a fleet of agents starting together), Linux drops the handshakes
 * that do not fit and those clients wait for a retransmission (1 s, then
 * 3 s). The bench saw 77 to 238 of 1,000 streams opening at once wait so.
 * The kernel caps the value at `net.core.somaxconn` (4096 on current Linux).
 */
export const EXAMPLE_LISTEN_BACKLOG = 4096;

/** The startup note about it. */
export const LISTEN_BACKLOG_NOTE = `Connections waiting to be accepted: up to ${EXAMPLE_LISTEN_BACKLOG} (listen backlog; capped by net.core.somaxconn).`;
