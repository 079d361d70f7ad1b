#contraction_to_scalar_trait = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"]}
func.func @contraction_to_scalar(%arg0: vector<10xf32>, %arg1: vector<10xf32>) -> f32 {
  %f0 = arith.constant 0.0: f32
  %0 = vector.contract #contraction_to_scalar_trait %arg0, %arg1, %f0
    : vector<10xf32>, vector<10xf32> into f32
  %1 = vector.contract #contraction_to_scalar_trait %arg0, %arg1, %0
    : vector<10xf32>, vector<10xf32> into f32
  return %1 : f32
}
