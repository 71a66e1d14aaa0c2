/** Whether a host name (without a port) names this machine: `localhost`, `127.x.y.z` or `::1` (bracketed or not). */
export function isLoopbackHost(name: string): boolean {
  const n = name.toLowerCase();
  return n === "localhost" || n === "::1" || n === "[::1]" || /^127(\.\d{1,3}){3}$/.test(n);
}
