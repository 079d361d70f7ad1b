// PolyBench 4.2 floyd-warshall: all-pairs shortest paths in place, in PolyBench's loop order
// (f64 path lengths, min as a compare and select as PolyBench's conditional). N=700.
func.func @kernel(%path: memref<700x700xf64>) {
  affine.for %k = 0 to 700 {
    affine.for %i = 0 to 700 {
      affine.for %j = 0 to 700 {
        %ij = affine.load %path[%i, %j] : memref<700x700xf64>
        %ik = affine.load %path[%i, %k] : memref<700x700xf64>
        %kj = affine.load %path[%k, %j] : memref<700x700xf64>
        %s = arith.addf %ik, %kj : f64
        %lt = arith.cmpf olt, %ij, %s : f64
        %m = arith.select %lt, %ij, %s : f64
        affine.store %m, %path[%i, %j] : memref<700x700xf64>
      }
    }
  }
  return
}
