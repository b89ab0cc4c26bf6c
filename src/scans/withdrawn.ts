// A background scan withdrawn by its caller: its batch item was cancelled before the scan
// started (BatchItemScan.starting), or finished by another run before this one could archive
// (BatchItemScan.archiveAlso: the exactly-once race lost). Nothing of such a scan is kept: it
// is not archived, not remembered for coalescing, and never served; a request that joined it
// runs a scan of its own instead. It is not an error: the caller drops it quietly.
export class ScanWithdrawn extends Error {
  override name = 'ScanWithdrawn';
}
