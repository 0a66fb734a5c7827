"""pytensor.tensor.type: TensorType and the variable makers."""
from .._graph import TensorType  # noqa: F401
from . import (bmatrix, bscalar, bvector, dmatrices, dmatrix, dscalar,  # noqa: F401
               dscalars, dtensor3, dtensor4, dvector, dvectors, fmatrices,
               fmatrix, fscalar, fscalars, ftensor3, ftensor4, fvector,
               fvectors, imatrices, imatrix, iscalar, iscalars, itensor3,
               ivector, ivectors, lmatrices, lmatrix, lscalar, lscalars,
               ltensor3, lvector, lvectors, matrices, matrix, scalar,
               scalars, tensor, tensor3, tensor4, vector, vectors)
