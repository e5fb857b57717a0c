"""Kernel handles on struct-of-arrays state: one numba structref instead of a tuple of many arrays.

Passing a NamedTuple of ~30 arrays to an @njit function costs an atomic reference-count update per
array per call; a structref costs one. The arrays are shared, so the NamedTuple sees every change.
Chunk kernels then ``borrow`` the handle: the same memory under a type that carries no reference counts, so
reading a field, passing an array or passing the handle itself costs nothing (the caller's handle keeps the
memory alive for the whole call).
A handle passed from Python is lent the same way: a kernel called from Python (a test on a hand-built
position, ``play_chunk`` from ``play_until``) sees the borrowed type, so it runs the very kernels play
compiled, not a second copy typed for owned handles (the Python object keeps the memory alive during the call).
With JIT disabled (NUMBA_DISABLE_JIT=1, used by `playtest bench`) the NamedTuple itself is the handle,
since attribute access is the same in plain Python, and ``borrow`` returns it unchanged.
"""

from __future__ import annotations

import functools
import sys
from typing import Callable, NamedTuple

from numba import config, typeof, types
from numba.core import cgutils
from numba.experimental import structref
from numba.extending import NativeValue, intrinsic, models, overload, register_model, unbox

from sim.core.cache import file_package, package_digest
from sim.core.jit import kernel

BORROWED: dict[type, type] = {}
"""Numba structref type class -> the type class of its borrowed handles."""


class UntrackedArray(types.Array):
    """A numpy array type whose values take no part in reference counting: the fields of a borrowed handle.

    Same layout as ``types.Array`` (so the owner's memory reads as is); every array operation applies. Views
    taken from it (``a[i]`` of a 2-D array, slices) are ordinary, counted arrays.
    """

    def __init__(self, dtype, ndim, layout, readonly=False, aligned=True):
        super().__init__(dtype, ndim, layout, readonly=readonly, aligned=aligned,
                         name=f"untracked array({dtype}, {ndim}d, {layout})")


@register_model(UntrackedArray)
class _UntrackedArrayModel(models.StructModel):
    """numba's array layout with the meminfo held as a plain pointer, which reference counting ignores."""

    def __init__(self, dmm, fe_type):
        members = [
            ("meminfo", types.voidptr),
            ("parent", types.pyobject),
            ("nitems", types.intp),
            ("itemsize", types.intp),
            ("data", types.CPointer(fe_type.dtype)),
            ("shape", types.UniTuple(types.intp, fe_type.ndim)),
            ("strides", types.UniTuple(types.intp, fe_type.ndim)),
        ]
        super().__init__(dmm, fe_type, members)


class _UntrackedStructModel(models.StructModel):
    """A structref's layout (one meminfo pointer) as a plain pointer: a borrowed handle counts no references."""

    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, [("meminfo", types.voidptr)])


def struct_handle(tuple_type: type[NamedTuple], name: str) -> Callable[[NamedTuple], object]:
    """Define a structref type over ``tuple_type``'s fields and return the function that wraps a value (the
    value itself without JIT)."""
    if config.DISABLE_JIT:
        return lambda value: value

    module = sys.modules[tuple_type.__module__]
    # The numba types live in the NamedTuple's module under their own names so that the on-disk kernel
    # cache (cache=True) can pickle and find them again.
    numba_type = _type_class(module, f"{name}Type")
    structref.register(numba_type)
    borrowed = _type_class(module, f"{name}BorrowedType")
    register_model(borrowed)(_UntrackedStructModel)
    structref.define_attributes(borrowed)
    unbox(borrowed)(_unbox_lent)
    BORROWED[numba_type] = borrowed
    proxy = type(name, (structref.StructRefProxy,), {"__module__": module.__name__,
                                                     "__doc__": f"Kernel handle on a {tuple_type.__name__}.",
                                                     "_numba_type_": property(_lent_numba_type)})
    setattr(module, name, proxy)
    fields = list(tuple_type._fields)
    structref.define_proxy(proxy, numba_type, fields)
    if file_package(module.__file__) is None:
        # A type outside sim (a test's) stays out of ``filled``'s cache index: a process loading the index unpickles
        # every type in it, and a test module is not importable everywhere (a notebook's kernel).
        return lambda value: _with_attributes(proxy(*value), value)

    def wrap(value: NamedTuple):
        handle_type = numba_type([(field, typeof(array)) for field, array in zip(fields, value)])
        return _with_attributes(filled(handle_type, tuple(value)), value)
    return wrap


def _fill(handle_type, values):
    """A new handle of ``handle_type`` holding ``values`` (its fields, in order): compiled code only."""


@overload(_fill)
def _fill_impl(handle_type, values):
    lines = "".join(f"\n    st.{field} = values[{i}]" for i, field in enumerate(handle_type.instance_type.field_dict))
    scope = {"new": structref.new}
    exec(f"def impl(handle_type, values):\n    st = new(handle_type){lines}\n    return st", scope)
    return scope["impl"]


@kernel
def filled(handle_type, values):
    """A new handle of ``handle_type`` (a type reference) on the arrays ``values``. numba's own constructor
    (``proxy(*arrays)``) is compiled anew in every process (7 Wonders' state and data: about 10 s); this one is
    cached on disk like the kernels."""
    return _fill(handle_type, values)


def _lent_numba_type(handle) -> types.StructRef:
    """The type numba gives the handle as an argument from Python (its dispatcher's fast path reads this
    attribute): the borrowed type, so Python calls the kernels play compiled."""
    return lent_type(handle._type)


@functools.cache
def lent_type(owned: types.StructRef) -> types.StructRef:
    """The borrowed counterpart of an owned handle type: the same fields, arrays untracked."""
    return BORROWED[type(owned)]([(name, _untracked(typ)) for name, typ in owned.field_dict.items()])


def _unbox_lent(typ, obj, c) -> NativeValue:
    """A handle passed from Python as its borrowed type: its meminfo pointer, with the reference taken to read it
    given back at once (the Python object holds the memory for the call; nothing would release it after)."""
    mi_obj = c.pyapi.object_getattr_string(obj, "_meminfo")
    mip = types.MemInfoPointer(types.voidptr)
    mi = c.unbox(mip, mi_obj).value
    c.context.nrt.decref(c.builder, mip, mi)
    c.pyapi.decref(mi_obj)
    out = cgutils.create_struct_proxy(typ)(c.context, c.builder)
    out.meminfo = c.builder.bitcast(mi, out.meminfo.type)
    return NativeValue(out._getvalue())


def _with_attributes(handle, value: NamedTuple):
    """Give the handle each array as a Python attribute too (the same memory): Python code (tests, replays,
    set-up) reads and edits a position through the very object it passes to the kernels."""
    for name, array in zip(type(value)._fields, value):
        setattr(handle, name, array)
    return handle


def _type_class(module, type_name: str) -> type:
    """A StructRef type class named ``type_name``, set as an attribute of ``module``. Its instances' numba name
    carries the digest of the sources of ``module``'s package (sim/core/cache.py), so a core kernel compiled for
    this type and cached on disk is never loaded after the package's sources change."""
    package = file_package(module.__file__)
    digest = package_digest(package) if package else ""

    def __init__(self, fields):
        types.StructRef.__init__(self, fields)
        self.name = f"{self.name}@{digest}"

    cls = type(type_name, (types.StructRef,), {"__module__": module.__name__, "__init__": __init__,
                                               "preprocess_fields": _unliteral_fields})
    setattr(module, type_name, cls)
    return cls


def _unliteral_fields(self, fields):
    """Store fields under their plain types (no literal values baked into the compiled type)."""
    return tuple((field, types.unliteral(typ)) for field, typ in fields)


def _untracked(typ):
    """The borrowed counterpart of a field type: arrays become UntrackedArray, anything else stays."""
    if type(typ) is types.Array:
        return UntrackedArray(typ.dtype, typ.ndim, typ.layout, readonly=not typ.mutable, aligned=typ.aligned)
    return typ


def borrow(handle):
    """The same state under a type without reference counting (see ``_borrow_impl``)."""
    return handle


@intrinsic
def _borrowed(typingctx, handle):
    """``handle``'s meminfo pointer, re-typed as the borrowed handle type (no copy, no count)."""
    borrowed = lent_type(handle)

    def codegen(context, builder, signature, args):
        owner = context.make_helper(builder, signature.args[0], args[0])
        out = context.make_helper(builder, signature.return_type)
        out.meminfo = builder.bitcast(owner.meminfo, out.meminfo.type)
        return out._getvalue()

    return borrowed(handle), codegen


@overload(borrow)
def _borrow_impl(handle):
    """Kernels call ``borrow(st)`` once per chunk: every field read, and every call passing the handle or its
    arrays, then makes no reference-count update (an atomic one for the handle, a call per array field).
    Valid while the caller holds ``handle``: the borrowed handle does not keep the memory alive by itself,
    so it must not be stored or returned.
    """
    if type(handle) not in BORROWED:
        return lambda handle: handle  # anything else (a game without static data passes None) is passed as is
    return lambda handle: _borrowed(handle)
