/**
 * Whether an account may use a node: the node takes every plan or the plan of the account's latest
 * paid order, and the account has at least the node's fewest connections in force. The subscription
 * links list only such nodes, and such nodes alone let the account's credentials in.
 */
export function mayUseNode(
  node: { periods: string[] | null; minConnections: number },
  access: { period: string | null; connections: number },
): boolean {
  return (
    node.minConnections <= access.connections &&
    (node.periods === null || (access.period !== null && node.periods.includes(access.period)))
  );
}
