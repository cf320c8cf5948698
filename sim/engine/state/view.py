"""``Borrowed[T]``: a game StructRef (State, Static, Decision) passed to kernels without its
reference count.

Why: a StructRef is a reference-counted pointer, and every kernel that receives one takes a
reference on entry and drops it on exit, each an atomic read-modify-write. Numba's pruning pass
removes such a pair only when no loop lies between the two, so almost every kernel kept it:
after the arrays were borrowed (``borrow.py``) these pairs were most of the third of a greedy
game still spent counting references (docs/performance.md, "Borrowed StructRefs").

A ``Borrowed[T]`` holds the same pointer (the StructRef's ``meminfo``) in a model Numba does
not count. Kernels read and write its fields exactly as the StructRef's (``st.ent``,
``st.decision.n_reached = -1``); a StructRef field reads borrowed too. ``sim._jit`` compiles
every kernel for borrowed arguments (``call_type`` of the StructRef types): a call with a State
converts it (a cast, no count), so each kernel has one specialisation, whether Python or a kernel
calls it. Who owns the memory is unchanged: the caller's State (a Python object, or a kernel's
local variable, which Numba keeps alive through every call it is passed to). A borrowed value
returned to Python, or stored in a StructRef, takes a reference of its own there.

Rules for kernels: never keep a borrowed value longer than its owner (no kernel stores one
anywhere but in a StructRef field, which counts it, and none returns one taken from a State it
made); build StructRefs from owned values (``owned(d)`` where a constructor receives a borrowed
one). tests/test_borrowed_state.py checks the bookkeeping: kernels are compiled for
``Borrowed`` only, a borrowed StructRef returned to Python holds one reference of its own, and
whole games free exactly what they allocate.
"""

from __future__ import annotations

import numba
from numba.core import cgutils, imputils, types
from numba.core.datamodel import models
from numba.core.extending import (NativeValue, box, infer_getattr, intrinsic,
                                  lower_getattr_generic, lower_setattr_generic, register_model,
                                  unbox)
from numba.core.imputils import lower_cast
from numba.core.typeconv import Conversion
from numba.core.typing.templates import AttributeTemplate


class Borrowed(types.Type):
    """A StructRef of type ``base`` without its reference count (module doc)."""

    def __init__(self, base):
        self.base = base
        super().__init__(name=f"Borrowed[{base}]")

    @property
    def key(self):
        return self.base


class ViewedStructRef(types.StructRef):
    """A StructRef type that kernels receive borrowed: ``sim._jit`` asks ``call_type``."""

    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(t)) for name, t in fields)

    def call_type(self):
        return Borrowed(self)

    def can_convert_to(self, typingctx, other):
        if isinstance(other, Borrowed) and other.base == self:
            return Conversion.promote
        return None


register_model(Borrowed)(models.OpaqueModel)


def _read_type(field_type):
    """What reading a field of this type gives through a borrowed StructRef."""
    if isinstance(field_type, ViewedStructRef):
        return Borrowed(field_type)
    return field_type


def _payload(context, builder, typ, meminfo):
    """The StructRef payload of ``typ.base`` that ``meminfo`` points to, as a struct proxy."""
    valtype = typ.base.get_data_type()
    alloc_type = context.data_model_manager[valtype].get_value_type()
    data_ptr = builder.bitcast(context.nrt.meminfo_data(builder, meminfo),
                               alloc_type.as_pointer())
    return cgutils.create_struct_proxy(valtype)(context, builder, ref=data_ptr)


def _meminfo_of(context, builder, structref_type, value):
    return cgutils.create_struct_proxy(structref_type)(context, builder, value=value).meminfo


def _structref_of(context, builder, structref_type, meminfo):
    ref = cgutils.create_struct_proxy(structref_type)(context, builder)
    ref.meminfo = meminfo
    return ref._getvalue()


if not numba.config.DISABLE_JIT:
    @infer_getattr
    class _BorrowedAttribute(AttributeTemplate):
        key = Borrowed

        def generic_resolve(self, typ, attr):
            if attr in typ.base.field_dict:
                return _read_type(typ.base.field_dict[attr])
            return None

    @lower_getattr_generic(Borrowed)
    def _getattr(context, builder, typ, val, attr):
        value = getattr(_payload(context, builder, typ, val), attr)
        field_type = typ.base.field_dict[attr]
        if isinstance(field_type, ViewedStructRef):  # borrowed: no count
            return _meminfo_of(context, builder, field_type, value)
        return imputils.impl_ret_borrowed(context, builder, field_type, value)

    @lower_setattr_generic(Borrowed)
    def _setattr(context, builder, sig, args, attr):
        typ, val_type = sig.args
        instance, val = args
        payload = _payload(context, builder, typ, instance)
        field_type = typ.base.field_dict[attr]
        value = context.cast(builder, val, val_type, field_type)
        old = getattr(payload, attr)
        context.nrt.incref(builder, field_type, value)
        context.nrt.decref(builder, field_type, old)  # last: the new value may be the old one
        setattr(payload, attr, value)

    @lower_cast(types.StructRef, Borrowed)
    def _borrow(context, builder, fromty, toty, val):
        return _meminfo_of(context, builder, fromty, val)

    @lower_cast(Borrowed, types.StructRef)
    def _unborrow(context, builder, fromty, toty, val):
        # a cast's result is borrowed in Numba (an assignment or a store increfs it)
        return _structref_of(context, builder, toty, val)

    @box(Borrowed)
    def _box(typ, val, c):
        """Python gets the StructRef's own proxy, with a reference of its own."""
        ref = _structref_of(c.context, c.builder, typ.base, val)
        c.context.nrt.incref(c.builder, typ.base, ref)
        return c.box(typ.base, ref)

    @unbox(Borrowed)
    def _unbox(typ, obj, c):
        """A State (Static, Decision) from Python: the pointer its proxy holds, not counted (the
        proxy, an argument of the call, outlives it)."""
        native = c.unbox(typ.base, obj)  # takes a reference...
        meminfo = _meminfo_of(c.context, c.builder, typ.base, native.value)
        c.context.nrt.decref(c.builder, typ.base, native.value)  # ...and gives it back
        return NativeValue(meminfo, is_error=native.is_error)

    @intrinsic
    def owned(typingctx, ref):
        """``ref`` as its StructRef type (for constructors, whose field types follow their
        arguments); a StructRef is returned as it is."""
        if isinstance(ref, Borrowed):
            def codegen(context, builder, sig, args):  # a result is a new reference
                value = _structref_of(context, builder, ref.base, args[0])
                return imputils.impl_ret_borrowed(context, builder, ref.base, value)
            return ref.base(ref), codegen
        if isinstance(ref, types.StructRef):
            def same(context, builder, sig, args):
                return imputils.impl_ret_borrowed(context, builder, ref, args[0])
            return ref(ref), same
        return None
else:
    def owned(ref):
        return ref
