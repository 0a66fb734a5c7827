//===- ShapeChecks.cpp - the shape facts compiled code assumes -----------===//
//
// Builtin tensor types forget where a dynamic size comes from, and the
// lowering trusts that sizes agree: `a + b` on two `?` dimensions reads as
// many elements as the first has, a slice reads up to its static end, a
// reshape to -1 divides. This pass follows every dynamic size back to the
// symbols of the function's inputs (`tc.dims`) as an expression (`2*N`,
// `(N/3)`, `(N+M)`) and records, per function, each fact the code assumes
// about them, so that the runtime can check them before a call.
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/IR/ConvShapes.h"
#include "dialects/tc/IR/ShapeInference.h"
#include "dialects/tc/IR/SliceRules.h"
#include "dialects/tc/IR/SourcePlace.h"
#include "dialects/tc/IR/TcOps.h"
#include "dialects/tc/Transforms/DimExpr.h"
#include "dialects/tc/Transforms/Passes.h"
#include "dialects/tc/Transforms/SizeScalarExprs.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

namespace tcc::tc {
#define GEN_PASS_DEF_SHAPECHECKS
#include "dialects/tc/Transforms/Passes.h.inc"
} // namespace tcc::tc

using namespace mlir;
using namespace tcc::tc;
using namespace tcc::tc::shape;

namespace {

/// Derives the expressions of one function and the checks they need.
class FunctionChecks {
public:
  FunctionChecks(func::FuncOp func) : func(func), b(func.getContext()) {}

  void run() {
    for (BlockArgument arg : func.getArguments())
      exprs[arg] = argumentExprs(arg);
    for (Operation &op : func.getBody().front())
      visit(&op);
    if (checks.empty())
      func->removeAttr(kShapeChecksAttr);
    else
      func->setAttr(kShapeChecksAttr, b.getArrayAttr(checks));
  }

private:
  Exprs argumentExprs(BlockArgument arg) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    Exprs result;
    if (!type)
      return result;
    auto dims = func.getArgAttrOfType<ArrayAttr>(arg.getArgNumber(),
                                                 TcDialect::kDimsAttr);
    for (int64_t i = 0; i < type.getRank(); ++i) {
      DimExpr e;
      if (!type.isDynamicDim(i))
        e = DimExpr::constant(type.getDimSize(i));
      else if (dims && i < (int64_t)dims.size()) {
        if (auto name = dyn_cast<StringAttr>(dims[i]);
            name && isIdentifier(name.getValue())) {
          e = DimExpr::symbol(name.getValue());
          inputSymbols.insert(name.getValue());
        } else if (name && isProductSymbol(name.getValue())) {
          // `B*T`: the runtime checks it against B and T as it binds them.
          e = parseDim(name.getValue());
        }
      }
      result.push_back(e);
    }
    return result;
  }

  /// The expressions of a value: known ones, static sizes, or unknown.
  Exprs of(Value v) {
    auto it = exprs.find(v);
    if (it != exprs.end())
      return it->second;
    Exprs result;
    if (auto type = dyn_cast<RankedTensorType>(v.getType()))
      for (int64_t size : type.getShape())
        result.push_back(ShapedType::isDynamic(size) ? DimExpr()
                                                     : DimExpr::constant(size));
    return result;
  }

  /// Records `lhs kind rhs` unless it holds for every size.
  void check(StringRef kind, const DimExpr &lhs, const DimExpr &rhs,
             const Twine &what, Location loc) {
    if (!lhs.known || !rhs.known)
      return;
    // Two constants (sizes that cancelled out): kept only when false, so
    // that every call is refused rather than run out of bounds.
    if (lhs.isConstant() && rhs.isConstant()) {
      int64_t a = lhs.coef, b = rhs.coef;
      bool holds = kind == "eq"   ? a == b
                   : kind == "le" ? a <= b
                                  : b != 0 && a % b == 0;
      if (holds)
        return;
    }
    if (kind == "eq" && lhs == rhs)
      return;
    if (kind == "le" && lhs.isConstant() && lhs.coef <= 0)
      return;
    if (kind == "multiple" && rhs.isConstant() &&
        (rhs.coef == 1 || lhs.coef % rhs.coef == 0))
      return;
    NamedAttrList attrs;
    attrs.append("kind", b.getStringAttr(kind));
    attrs.append("lhs", b.getStringAttr(lhs.text()));
    attrs.append("rhs", b.getStringAttr(rhs.text()));
    attrs.append("what", b.getStringAttr(what));
    attrs.append("where", b.getStringAttr(sourcePlace(loc)));
    checks.push_back(attrs.getDictionary(b.getContext()));
  }

  static std::string opName(Operation *op) {
    return "'" + op->getName().stripDialect().str() + "'";
  }

  /// numpy broadcasting of all but the `trailing` dimensions: dynamic sizes
  /// aligned with each other are equal (the lowering takes the first one's
  /// size and broadcasts only static 1s).
  Exprs broadcast(Operation *op, ArrayRef<Value> operands,
                  RankedTensorType resultType, int64_t trailing = 0,
                  StringRef dimWhat = "dimension") {
    int64_t rank = resultType.getRank() - trailing;
    Exprs result;
    for (int64_t i = 0; i < rank; ++i) {
      DimExpr first;
      bool haveFirst = false;
      for (Value v : operands) {
        Exprs e = of(v);
        int64_t vRank = (int64_t)e.size() - trailing;
        int64_t j = i - (rank - vRank);
        auto type = cast<RankedTensorType>(v.getType());
        if (j < 0 || !type.isDynamicDim(j))
          continue;
        if (!haveFirst) {
          first = e[j];
          haveFirst = true;
          continue;
        }
        check("eq", first, e[j],
              "operands of " + opName(op) + " differ in " + dimWhat + " " +
                  Twine(i),
              op->getLoc());
      }
      if (!resultType.isDynamicDim(i))
        result.push_back(DimExpr::constant(resultType.getDimSize(i)));
      else
        result.push_back(haveFirst ? first : DimExpr());
    }
    return result;
  }

  void visit(Operation *op) {
    if (auto scan = dyn_cast<ScanOp>(op))
      return visitScan(scan);
    if (auto loop = dyn_cast<WhileOp>(op))
      return visitWhile(loop);
    if (op->getNumResults() != 1)
      return visitOutputs(op);
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type)
      return;
    Value result = op->getResult(0);
    DimExpr scalar = sizeScalarExpr(
        op, [&](Value v) { return of(v); },
        [&](Value v) { return scalars.lookup(v); });
    if (scalar.known)
      scalars[result] = scalar;
    // Every elementwise op: one that is missing here hides the sizes of
    // its result from the ops after it (a slice of `a | b` went unchecked).
    if (isa<AddOp, SubOp, MulOp, DivOp, PowOp, MaximumOp, MinimumOp, CmpOp,
            SelectOp, CastOp, NegOp, AbsOp, ReluOp, ExpOp, LogOp, TanhOp,
            SigmoidOp, SqrtOp, RsqrtOp, SoftmaxOp, LogSoftmaxOp>(op) ||
        // The math and logic ops that came later (found by the difftest's
        // mismatched sizes: an argmax of a sign over an empty axis ran).
        isa<SignOp, ErfOp, Log1pOp, Expm1Op, SoftplusOp, SinOp, CosOp, FloorOp,
            CeilOp, RoundOp, NotOp, AndOp, OrOp, XorOp, ClipOp>(op)) {
      exprs[result] = broadcast(op, llvm::to_vector(op->getOperands()), type);
    } else if (auto matmul = dyn_cast<MatmulOp>(op)) {
      visitMatmul(matmul, type);
    } else if (auto transpose = dyn_cast<TransposeOp>(op)) {
      Exprs in = of(transpose.getInput()), out;
      for (int64_t p : transpose.getPerm())
        out.push_back(in[p]);
      exprs[result] = out;
    } else if (auto reshape = dyn_cast<ReshapeOp>(op)) {
      visitReshape(reshape, type);
    } else if (auto broadcastTo = dyn_cast<BroadcastToOp>(op)) {
      // A dynamic size broadcasts only against itself: the input's.
      Exprs in = of(broadcastTo.getInput()), out = of(result);
      int64_t offset = type.getRank() - (int64_t)in.size();
      for (int64_t i = offset; i < type.getRank(); ++i)
        if (type.isDynamicDim(i))
          out[i] = in[i - offset];
      exprs[result] = out;
    } else if (auto slice = dyn_cast<SliceOp>(op)) {
      visitSlice(slice);
    } else if (auto concat = dyn_cast<ConcatOp>(op)) {
      visitConcat(concat, type);
    } else if (isa<SumOp, MeanOp, MaxOp, MinOp, ProdOp, ArgmaxOp, LogSumExpOp,
                   VarOp, StdOp>(op)) {
      visitReduction(op);
    } else if (auto take = dyn_cast<TakeOp>(op)) {
      // input[:axis] + ids + input[axis+1:]
      Exprs in = of(take.getInput()), ids = of(take.getIds());
      int64_t axis = take.getAxis();
      Exprs out(in.begin(), in.begin() + axis);
      out.append(ids.begin(), ids.end());
      out.append(in.begin() + axis + 1, in.end());
      exprs[result] = out;
    } else if (auto t = dyn_cast<TakeAlongAxisOp>(op)) {
      // The ids' sizes but along the axis are the input's.
      Exprs in = of(t.getInput()), ids = of(t.getIds());
      auto idsType = cast<RankedTensorType>(t.getIds().getType());
      for (int64_t d = 0; d < idsType.getRank(); ++d)
        if (d != (int64_t)t.getAxis() && idsType.isDynamicDim(d))
          check("eq", ids[d], in[d],
                "ids of 'take_along_axis' differ from the input in "
                "dimension " +
                    std::to_string(d),
                op->getLoc());
      exprs[result] = ids;
    } else if (auto s = dyn_cast<ScatterAddOp>(op)) {
      // The updates are shaped as take(input, ids).
      Exprs in = of(s.getInput()), ids = of(s.getIds()),
            updates = of(s.getUpdates());
      int64_t axis = s.getAxis();
      Exprs taken(in.begin(), in.begin() + axis);
      taken.append(ids.begin(), ids.end());
      taken.append(in.begin() + axis + 1, in.end());
      auto updatesType = cast<RankedTensorType>(s.getUpdates().getType());
      for (int64_t d = 0; d < updatesType.getRank(); ++d)
        if (updatesType.isDynamicDim(d))
          check("eq", updates[d], taken[d],
                "updates of 'scatter_add' differ from take(input, ids) in "
                "dimension " +
                    std::to_string(d),
                op->getLoc());
      exprs[result] = in;
    } else if (auto o = dyn_cast<OneHotOp>(op)) {
      Exprs out = of(o.getIds());
      out.push_back(DimExpr::constant(o.getDepth()));
      exprs[result] = out;
    } else if (isa<CumsumOp, CumprodOp, AllReduceOp, BroadcastOp>(op)) {
      // A scan, and a collective that combines or copies whole values,
      // keep their input's sizes.
      exprs[result] = of(op->getOperand(0));
    } else if (isa<Conv1DOp, Conv2DOp, MaxPool2DOp, AvgPool2DOp>(op)) {
      visitWindowed(op, type);
    } else if (auto gather = dyn_cast<AllGatherOp>(op)) {
      // Every rank's rows, one after the other.
      Exprs in = of(gather.getInput()), out = of(result);
      if (!out.empty() && type.isDynamicDim(0))
        out[0] = mul(DimExpr::constant(gather.getRanks()), in[0]);
      for (size_t i = 1; i < out.size() && i < in.size(); ++i)
        if (type.isDynamicDim(i))
          out[i] = in[i];
      exprs[result] = out;
    } else if (auto ifelse = dyn_cast<IfElseOp>(op)) {
      // The value taken: a size both values have is the result's.
      Exprs a = of(ifelse.getOnTrue()), b = of(ifelse.getOnFalse()),
            out = of(result);
      for (size_t i = 0; i < out.size() && i < a.size() && i < b.size(); ++i)
        if (a[i] == b[i])
          out[i] = a[i];
      exprs[result] = out;
    } else if (isa<FullOp, IotaOp>(op)) {
      // The dynamic sizes are the `sizes` operands, in order.
      auto sizes = isa<FullOp>(op) ? cast<FullOp>(op).getSizes()
                                   : cast<IotaOp>(op).getSizes();
      Exprs out = of(result);
      size_t next = 0;
      for (int64_t i = 0; i < type.getRank(); ++i)
        if (type.isDynamicDim(i) && next < sizes.size())
          out[i] = scalars.lookup(sizes[next++]);
      exprs[result] = out;
    } else if (auto random = dyn_cast<RandomOp>(op)) {
      // A dynamic result has the sizes of `like` (the verifier).
      if (random.getLike())
        exprs[result] = of(random.getLike());
    }
  }

  /// A convolution or pooling keeps the batch; a dynamic spatial size is
  /// windowed (ConvShapes.h), once the window is known to fit in it: the
  /// padded size holds at least the window's span.
  void visitWindowed(Operation *op, RankedTensorType type) {
    Value result = op->getResult(0);
    Exprs in = of(op->getOperand(0)), out = of(result);
    int64_t spatialRank = type.getRank() - 2;
    StringRef layout = op->getAttrOfType<StringAttr>("layout").getValue();
    bool last = channelsLastOf(layout, spatialRank).value_or(false);
    int64_t first = last ? 1 : 2;
    SmallVector<int64_t> kernel, strides, padding, dilations;
    if (auto pool = dyn_cast<MaxPool2DOp>(op)) {
      kernel.assign(pool.getKernel().begin(), pool.getKernel().end());
      dilations.assign(2, 1);
    } else if (auto pool = dyn_cast<AvgPool2DOp>(op)) {
      kernel.assign(pool.getKernel().begin(), pool.getKernel().end());
      dilations.assign(2, 1);
    } else {
      auto filter = cast<RankedTensorType>(op->getOperand(1).getType());
      for (int64_t i = 0; i < spatialRank; ++i)
        kernel.push_back(filter.getDimSize(last ? i : 2 + i));
      auto d = op->getAttrOfType<DenseI64ArrayAttr>("dilations");
      dilations.assign(d.asArrayRef().begin(), d.asArrayRef().end());
    }
    auto s = op->getAttrOfType<DenseI64ArrayAttr>("strides");
    auto p = op->getAttrOfType<DenseI64ArrayAttr>("padding");
    strides.assign(s.asArrayRef().begin(), s.asArrayRef().end());
    padding.assign(p.asArrayRef().begin(), p.asArrayRef().end());
    out[0] = in[0];
    for (int64_t i = 0; i < spatialRank; ++i) {
      int64_t d = first + i;
      if (!type.isDynamicDim(d))
        continue;
      int64_t lo = padding[2 * i], hi = padding[2 * i + 1];
      int64_t span = dilations[i] * (kernel[i] - 1) + 1;
      if (strides[i] == 1 && lo + hi == span - 1) {
        out[d] = in[d];
        continue;
      }
      check("le", DimExpr::constant(span - lo - hi), in[d],
            "the window of " + opName(op) + " (span " + Twine(span) +
                ", padding " + Twine(lo) + "+" + Twine(hi) +
                ") does not fit in spatial dimension " + Twine(i),
            op->getLoc());
      if (!in[d].known)
        continue;
      if (in[d].isConstant()) {
        out[d] =
            DimExpr::constant((in[d].coef + lo + hi - span) / strides[i] + 1);
        continue;
      }
      out[d] = DimExpr{
          true,
          1,
          {"(" + windowedSizeExpr(in[d].text(), lo, hi, span, strides[i]) +
           ")"}};
    }
    exprs[result] = out;
  }

  void visitMatmul(MatmulOp op, RankedTensorType type) {
    Exprs lhs = of(op.getLhs()), rhs = of(op.getRhs());
    auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
    int64_t k = lhs.size() - 1;
    if (lhsType.isDynamicDim(k))
      check("eq", lhs[k], rhs[rhs.size() - 2],
            "contraction dimensions of 'matmul' differ", op.getLoc());
    Exprs out =
        broadcast(op, {op.getLhs(), op.getRhs()}, type, 2, "batch dimension");
    out.push_back(lhs[lhs.size() - 2]);
    out.push_back(rhs.back());
    exprs[op.getResult()] = out;
  }

  void visitReshape(ReshapeOp op, RankedTensorType type) {
    Exprs in = of(op.getInput());
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    if (inType.hasStaticShape())
      return; // the verifier checked the element counts
    DimExpr count = DimExpr::constant(1);
    for (const DimExpr &e : in)
      count = mul(count, e);
    // Several dynamic sizes, named by the front end: their product is the
    // element count.
    if (auto dims = op->getAttrOfType<ArrayAttr>(TcDialect::kDimsAttr)) {
      Exprs out = of(op.getResult());
      DimExpr product = DimExpr::constant(1);
      for (auto [i, d] : llvm::enumerate(dims)) {
        if (auto text = dyn_cast<StringAttr>(d);
            text && i < out.size() && type.isDynamicDim(i))
          out[i] = parseDim(text.getValue());
        if (i < out.size())
          product = mul(product, out[i]);
      }
      check("eq", count, product,
            "'reshape' to " + describe(out) + " keeps the element count",
            op.getLoc());
      exprs[op.getResult()] = out;
      return;
    }
    int64_t rest = 1;
    std::optional<int64_t> dynamicAt;
    for (int64_t i = 0; i < type.getRank(); ++i) {
      if (!type.isDynamicDim(i)) {
        if (llvm::MulOverflow(rest, type.getDimSize(i), rest))
          return;
      } else if (dynamicAt)
        return; // several unknown sizes: nothing to derive
      else
        dynamicAt = i;
    }
    // "'reshape' of [N, 2] to [?, 3]": the sizes as the checks name them.
    std::string what = "'reshape' of [";
    for (auto [i, e] : llvm::enumerate(in))
      what += (i ? ", " : "") + (e.known ? e.text() : std::string("?"));
    what += "] to [";
    for (int64_t i = 0; i < type.getRank(); ++i)
      what += (i ? ", " : "") + (type.isDynamicDim(i)
                                     ? std::string("?")
                                     : std::to_string(type.getDimSize(i)));
    what += "]";
    // A dynamic input never takes a static shape (the verifier), and with a
    // zero-size rest any size fits.
    if (!dynamicAt || rest == 0)
      return;
    check("multiple", count, DimExpr::constant(rest),
          what + " needs a multiple of " + std::to_string(rest) + " elements",
          op.getLoc());
    Exprs out = of(op.getResult());
    out[*dynamicAt] = divide(count, rest);
    exprs[op.getResult()] = out;
  }

  /// "[B, T, 4]", unknown sizes as "?".
  static std::string describe(const Exprs &exprs) {
    std::string text = "[";
    for (auto [i, e] : llvm::enumerate(exprs))
      text += (i ? ", " : "") + (e.known ? e.text() : std::string("?"));
    return text + "]";
  }

  /// A static length of a dynamic dimension assumes that the dimension is
  /// long enough (SliceForm); any other length is numpy's, computed from
  /// the size.
  void visitSlice(SliceOp op) {
    Exprs in = of(op.getInput()), out = of(op.getResult());
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    for (int64_t i = 0; i < inType.getRank(); ++i) {
      if (!inType.isDynamicDim(i))
        continue;
      int64_t begin = op.getBegin()[i], end = op.getEnd()[i],
              step = op.getStep()[i];
      SliceForm form = classifySlice(begin, end, step);
      if (form.kind == SliceForm::Kind::FromStart) {
        check("le", DimExpr::constant(form.needs), in[i],
              "'slice' ends past dimension " + Twine(i) + " of its input",
              op.getLoc());
        continue;
      }
      if (form.kind == SliceForm::Kind::FromEnd) {
        check("le", DimExpr::constant(form.needs), in[i],
              "'slice' begins before the start of dimension " + Twine(i) +
                  " of its input",
              op.getLoc());
        continue;
      }
      if (!in[i].known)
        continue;
      if (in[i].isConstant()) {
        out[i] =
            DimExpr::constant(adjustSlice(in[i].coef, begin, end, step).length);
        continue;
      }
      std::string size = in[i].text();
      std::string length = slicedLengthExpr(size, begin, end, step);
      if (length == size)
        out[i] = in[i];
      else if (length == "0")
        out[i] = DimExpr::constant(0);
      else
        out[i] = DimExpr{true, 1, {"(" + length + ")"}};
    }
    exprs[op.getResult()] = out;
  }

  void visitConcat(ConcatOp op, RankedTensorType type) {
    int64_t axis = op.getAxis();
    Exprs out;
    for (int64_t i = 0; i < type.getRank(); ++i) {
      if (i != axis) {
        // The same rule as broadcasting, without the 1s.
        DimExpr first;
        bool haveFirst = false;
        for (Value v : op.getInputs()) {
          if (!cast<RankedTensorType>(v.getType()).isDynamicDim(i))
            continue;
          DimExpr e = of(v)[i];
          if (haveFirst)
            check("eq", first, e,
                  "inputs of 'concat' differ in dimension " + Twine(i),
                  op.getLoc());
          else
            first = e;
          haveFirst = true;
        }
        out.push_back(type.isDynamicDim(i)
                          ? first
                          : DimExpr::constant(type.getDimSize(i)));
        continue;
      }
      DimExpr sum = DimExpr::constant(0);
      for (Value v : op.getInputs())
        sum = add(sum, of(v)[i]);
      out.push_back(
          type.isDynamicDim(i) ? sum : DimExpr::constant(type.getDimSize(i)));
    }
    exprs[op.getResult()] = out;
  }

  void visitReduction(Operation *op) {
    Value input = op->getOperand(0);
    auto inType = cast<RankedTensorType>(input.getType());
    Exprs in = of(input);
    SmallVector<int64_t> axes;
    bool keepdims = op->hasAttr("keepdims");
    if (auto argmax = dyn_cast<ArgmaxOp>(op))
      axes.push_back(argmax.getAxis());
    else if (auto attr = op->getAttrOfType<DenseI64ArrayAttr>("axes"))
      axes.assign(attr.asArrayRef().begin(), attr.asArrayRef().end());
    // max, min and argmax of nothing have no value (numpy raises).
    if (isa<MaxOp, MinOp, ArgmaxOp>(op))
      for (int64_t a : axes)
        if (inType.isDynamicDim(a))
          check("le", DimExpr::constant(1), in[a],
                opName(op) + " over dimension " + Twine(a) + ", which is empty",
                op->getLoc());
    Exprs out;
    for (int64_t i = 0; i < inType.getRank(); ++i) {
      if (!llvm::is_contained(axes, i))
        out.push_back(in[i]);
      else if (keepdims)
        out.push_back(DimExpr::constant(1));
    }
    exprs[op->getResult(0)] = out;
  }

  /// A scan's sequences have one length; its body's ops are checked as
  /// the function's (its states have their inits' sizes, its elements the
  /// sequences' rows'), and its results have the states' sizes and the
  /// steps' rows' with the length in front.
  void visitScan(ScanOp scan) {
    Block &body = scan.getBodyBlock();
    size_t numInits = scan.getInits().size();
    DimExpr length;
    for (auto [j, seq] : llvm::enumerate(scan.getSequences())) {
      Exprs e = of(seq);
      if (j == 0)
        length = e[0];
      else if (cast<RankedTensorType>(seq.getType()).isDynamicDim(0))
        check("eq", length, e[0], "the sequences of 'scan' differ in length",
              scan.getLoc());
      exprs[body.getArgument(numInits + j)] = Exprs(e.begin() + 1, e.end());
    }
    for (auto [k, init] : llvm::enumerate(scan.getInits()))
      exprs[body.getArgument(k)] = of(init);
    for (Operation &inner : body.without_terminator())
      visit(&inner);
    auto yield = cast<YieldOp>(body.getTerminator());
    for (auto [k, result] : llvm::enumerate(scan.getResults())) {
      if (k < numInits) {
        exprs[result] = of(scan.getInits()[k]);
        continue;
      }
      Exprs row = of(yield.getValues()[k]);
      Exprs e = {scan.getSequences().empty() ? DimExpr() : length};
      e.append(row.begin(), row.end());
      exprs[result] = e;
    }
  }

  /// A while's regions are checked as the function's ops, its states
  /// having their inits' sizes; its final states have them too, and its
  /// saved states `max_steps` rows of them.
  void visitWhile(WhileOp loop) {
    for (Block *block : {&loop.getCondBlock(), &loop.getBodyBlock()}) {
      for (auto [k, init] : llvm::enumerate(loop.getInits()))
        exprs[block->getArgument(k)] = of(init);
      for (Operation &inner : block->without_terminator())
        visit(&inner);
    }
    for (auto [k, init] : llvm::enumerate(loop.getInits())) {
      exprs[loop.getResult(k)] = of(init);
      if (k < loop.getSavedStates().size()) {
        Exprs e = {DimExpr()};
        Exprs row = of(init);
        e.append(row.begin(), row.end());
        exprs[loop.getSavedStates()[k]] = e;
      }
    }
    exprs[loop.getTripCount()] = Exprs();
  }

  /// A declared output size `N` is what the runtime allocates: the value
  /// computed must have it.
  void visitOutputs(Operation *op) {
    auto ret = dyn_cast<func::ReturnOp>(op);
    if (!ret)
      return;
    for (auto [r, value] : llvm::enumerate(ret.getOperands())) {
      auto dims = func.getResultAttrOfType<ArrayAttr>(r, TcDialect::kDimsAttr);
      auto name = func.getResultAttrOfType<StringAttr>(r, TcDialect::kNameAttr);
      Exprs e = of(value);
      if (!dims)
        continue;
      // Where the value is computed says more than the function's end.
      Operation *def = value.getDefiningOp();
      Location at = def ? def->getLoc() : ret.getLoc();
      for (auto [i, d] : llvm::enumerate(dims)) {
        auto symbol = dyn_cast<StringAttr>(d);
        if (!symbol || i >= e.size() ||
            !(inputSymbols.count(symbol.getValue()) ||
              isProductSymbol(symbol.getValue())))
          continue;
        check("eq", e[i], parseDim(symbol.getValue()),
              "output '" + (name ? name.getValue() : StringRef()) +
                  "' differs from its declared size in dimension " + Twine(i),
              at);
      }
    }
  }

  func::FuncOp func;
  Builder b;
  DenseMap<Value, Exprs> exprs;
  /// The i64 scalars that sizes are computed from (SizeScalarExprs.h).
  DenseMap<Value, DimExpr> scalars;
  llvm::StringSet<> inputSymbols;
  SmallVector<Attribute> checks;
};

struct ShapeChecksPass
    : public tcc::tc::impl::ShapeChecksBase<ShapeChecksPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal())
        FunctionChecks(func).run();
  }
};

} // namespace
