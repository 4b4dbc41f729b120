/* vm.c - the bytecode_vm stack machine.  Every opcode is executed by its
 * own handler function, dispatched through a table of function pointers
 * (one indirect call per instruction).  Also holds the native library
 * (len, str, substr, keys, emit, ...) and the script runner. */
#include "vm.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*OpHandler)(VM *vm);

/* ---- errors and stack helpers ------------------------------------------ */

void vm_fatal(VM *vm, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "bytecode_vm: runtime error: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    if (vm && vm->nframes > 0) {
        ObjString *n = vm->fr->cl->fn->name;
        fprintf(stderr, " (in %s)", n ? n->chars : "?");
    }
    fprintf(stderr, "\n");
    exit(3);
}

static inline void push(VM *vm, Value v) { *vm->sp++ = v; }
static inline Value pop(VM *vm) { return *--vm->sp; }
static inline Value peek(VM *vm, int dist) { return vm->sp[-1 - dist]; }

static inline uint8_t read_u8(VM *vm) { return *vm->ip++; }

static inline unsigned read_u16(VM *vm)
{
    unsigned v = (unsigned)vm->ip[0] | ((unsigned)vm->ip[1] << 8);
    vm->ip += 2;
    return v;
}

static inline Value read_const(VM *vm) { return vm->fr->cl->fn->k[read_u16(vm)]; }

static bool truthy(Value v)
{
    return !(v.type == V_NIL || (v.type == V_BOOL && !v.as.b));
}

static const char *type_name(Value v)
{
    switch (v.type) {
    case V_NIL: return "nil";
    case V_BOOL: return "bool";
    case V_INT: return "int";
    default: break;
    }
    switch (v.as.o->type) {
    case O_STRING: return "string";
    case O_TABLE: return "table";
    case O_NATIVE: return "native";
    default: return "function";
    }
}

static void need_ints(VM *vm, Value a, Value b, const char *op)
{
    if (a.type != V_INT || b.type != V_INT)
        vm_fatal(vm, "operands of '%s' must be ints (got %s, %s)", op,
                 type_name(a), type_name(b));
}

static ObjString *to_string(VM *vm, Value v)
{
    char buf[32];
    int n;
    switch (v.type) {
    case V_INT:
        n = snprintf(buf, sizeof buf, "%" PRId64, v.as.i);
        return str_new(vm, buf, (size_t)n);
    case V_NIL:
        return str_new(vm, "nil", 3);
    case V_BOOL:
        return v.as.b ? str_new(vm, "true", 4) : str_new(vm, "false", 5);
    default:
        if (v.as.o->type == O_STRING)
            return AS_STR(v);
        vm_fatal(vm, "cannot convert %s to string", type_name(v));
    }
}

/* ---- constant, variable and table handlers ------------------------------ */

static void op_const(VM *vm) { push(vm, read_const(vm)); }
static void op_nil(VM *vm) { push(vm, v_nil()); }
static void op_true(VM *vm) { push(vm, v_bool(true)); }
static void op_false(VM *vm) { push(vm, v_bool(false)); }
static void op_pop(VM *vm) { vm->sp--; }

static void op_get_local(VM *vm) { push(vm, vm->fr->slots[read_u8(vm)]); }
static void op_set_local(VM *vm) { vm->fr->slots[read_u8(vm)] = peek(vm, 0); }
static void op_get_upv(VM *vm) { push(vm, vm->fr->cl->upv[read_u8(vm)]); }

static void op_inc_local(VM *vm)
{
    Value *slot = &vm->fr->slots[read_u8(vm)];
    if (slot->type != V_INT)
        vm_fatal(vm, "'++' needs an int");
    slot->as.i = (int64_t)((uint64_t)slot->as.i + 1);
    push(vm, *slot);
}

static void op_get_global(VM *vm)
{
    Value name = read_const(vm), v;
    if (!table_get(vm->globals, name, &v))
        vm_fatal(vm, "undefined global '%s'", AS_STR(name)->chars);
    push(vm, v);
}

static void op_set_global(VM *vm)
{
    Value name = read_const(vm), old;
    if (!table_get(vm->globals, name, &old))
        vm_fatal(vm, "assignment to undefined global '%s'", AS_STR(name)->chars);
    table_set(vm, vm->globals, name, peek(vm, 0));
}

static void op_def_global(VM *vm)
{
    Value name = read_const(vm);
    table_set(vm, vm->globals, name, peek(vm, 0));
    vm->sp--;
}

static void op_new_table(VM *vm) { push(vm, v_obj(table_new(vm))); }

static void op_append(VM *vm)
{
    ObjTable *t = AS_TABLE(peek(vm, 1));
    table_set(vm, t, v_int(t->count), peek(vm, 0));
    vm->sp--;
}

static void op_init_field(VM *vm)
{
    ObjTable *t = AS_TABLE(peek(vm, 2));
    table_set(vm, t, peek(vm, 1), peek(vm, 0));
    vm->sp -= 2;
}

static void op_get_index(VM *vm)
{
    Value key = peek(vm, 0), obj = peek(vm, 1), v = v_nil();
    if (IS_OBJ_T(obj, O_TABLE)) {
        if (!value_hashable(key))
            vm_fatal(vm, "bad table key type %s", type_name(key));
        table_get(AS_TABLE(obj), key, &v);
    } else if (IS_OBJ_T(obj, O_STRING) && key.type == V_INT) {
        ObjString *s = AS_STR(obj);
        if (key.as.i < 0 || key.as.i >= (int64_t)s->len)
            vm_fatal(vm, "string index %" PRId64 " out of range", key.as.i);
        v = v_int((uint8_t)s->chars[key.as.i]);
    } else {
        vm_fatal(vm, "cannot index a %s", type_name(obj));
    }
    vm->sp -= 2;
    push(vm, v);
}

static void op_set_index(VM *vm)
{
    Value val = peek(vm, 0), key = peek(vm, 1), obj = peek(vm, 2);
    if (!IS_OBJ_T(obj, O_TABLE))
        vm_fatal(vm, "cannot assign into a %s", type_name(obj));
    if (!value_hashable(key))
        vm_fatal(vm, "bad table key type %s", type_name(key));
    if (val.type == V_NIL)
        table_delete(AS_TABLE(obj), key);
    else
        table_set(vm, AS_TABLE(obj), key, val);
    vm->sp -= 3;
    push(vm, val);
}

/* ---- arithmetic and comparison handlers -------------------------------- */

static void binary_int(VM *vm, const char *name, int which)
{
    Value b = peek(vm, 0), a = peek(vm, 1);
    need_ints(vm, a, b, name);
    uint64_t x = (uint64_t)a.as.i, y = (uint64_t)b.as.i;
    int64_t r = 0;
    switch (which) {
    case 0: r = (int64_t)(x + y); break;
    case 1: r = (int64_t)(x - y); break;
    case 2: r = (int64_t)(x * y); break;
    case 3:
    case 4:
        if (b.as.i == 0)
            vm_fatal(vm, "division by zero");
        if (b.as.i == -1)
            r = which == 3 ? (int64_t)(0 - x) : 0;
        else
            r = which == 3 ? a.as.i / b.as.i : a.as.i % b.as.i;
        break;
    }
    vm->sp -= 2;
    push(vm, v_int(r));
}

static void op_add(VM *vm) { binary_int(vm, "+", 0); }
static void op_sub(VM *vm) { binary_int(vm, "-", 1); }
static void op_mul(VM *vm) { binary_int(vm, "*", 2); }
static void op_div(VM *vm) { binary_int(vm, "/", 3); }
static void op_mod(VM *vm) { binary_int(vm, "%", 4); }

static void op_neg(VM *vm)
{
    Value *v = &vm->sp[-1];
    if (v->type != V_INT)
        vm_fatal(vm, "operand of unary '-' must be an int");
    v->as.i = (int64_t)(0 - (uint64_t)v->as.i);
}

static void op_not(VM *vm) { vm->sp[-1] = v_bool(!truthy(vm->sp[-1])); }

static void op_concat(VM *vm)
{
    ObjString *a = to_string(vm, peek(vm, 1));
    vm->sp[-2] = v_obj(a); /* keep the conversion reachable */
    ObjString *b = to_string(vm, peek(vm, 0));
    vm->sp[-1] = v_obj(b);
    ObjString *r = str_concat(vm, a, b);
    vm->sp -= 2;
    push(vm, v_obj(r));
}

/* <0, 0, >0 comparison of two ints or two strings. */
static int compare(VM *vm, Value a, Value b)
{
    if (a.type == V_INT && b.type == V_INT)
        return (a.as.i > b.as.i) - (a.as.i < b.as.i);
    if (IS_OBJ_T(a, O_STRING) && IS_OBJ_T(b, O_STRING)) {
        ObjString *x = AS_STR(a), *y = AS_STR(b);
        uint32_t n = x->len < y->len ? x->len : y->len;
        int c = memcmp(x->chars, y->chars, n);
        if (c)
            return c;
        return (x->len > y->len) - (x->len < y->len);
    }
    vm_fatal(vm, "cannot compare %s with %s", type_name(a), type_name(b));
}

static void compare_op(VM *vm, int kind)
{
    Value b = pop(vm), a = pop(vm);
    int c = compare(vm, a, b);
    bool r = kind == 0 ? c < 0 : kind == 1 ? c <= 0 : kind == 2 ? c > 0 : c >= 0;
    push(vm, v_bool(r));
}

static void op_lt(VM *vm) { compare_op(vm, 0); }
static void op_le(VM *vm) { compare_op(vm, 1); }
static void op_gt(VM *vm) { compare_op(vm, 2); }
static void op_ge(VM *vm) { compare_op(vm, 3); }

static void op_eq(VM *vm)
{
    Value b = pop(vm), a = pop(vm);
    push(vm, v_bool(values_equal(a, b)));
}

static void op_ne(VM *vm)
{
    Value b = pop(vm), a = pop(vm);
    push(vm, v_bool(!values_equal(a, b)));
}

/* ---- control flow handlers ---------------------------------------------- */

static void op_jump(VM *vm)
{
    unsigned d = read_u16(vm);
    vm->ip += d;
}

static void op_jump_false(VM *vm)
{
    unsigned d = read_u16(vm);
    if (!truthy(pop(vm)))
        vm->ip += d;
}

static void op_and_jump(VM *vm)
{
    unsigned d = read_u16(vm);
    if (!truthy(peek(vm, 0)))
        vm->ip += d;
    else
        vm->sp--;
}

static void op_or_jump(VM *vm)
{
    unsigned d = read_u16(vm);
    if (truthy(peek(vm, 0)))
        vm->ip += d;
    else
        vm->sp--;
}

static void op_loop(VM *vm)
{
    unsigned d = read_u16(vm);
    vm->ip -= d;
}

static void call_closure(VM *vm, ObjClosure *cl, int argc)
{
    if (argc != cl->fn->arity)
        vm_fatal(vm, "%s expects %d arguments, got %d",
                 cl->fn->name ? cl->fn->name->chars : "?", cl->fn->arity, argc);
    if (vm->nframes == FRAMES_MAX || vm->sp + 600 > vm->stack + STACK_MAX)
        vm_fatal(vm, "stack overflow");
    vm->fr->ip = vm->ip;
    Frame *f = &vm->frames[vm->nframes++];
    f->cl = cl;
    f->ip = cl->fn->code;
    f->slots = vm->sp - argc - 1;
    vm->fr = f;
    vm->ip = f->ip;
    vm->calls++;
}

static void call_native(VM *vm, ObjNative *nat, int argc)
{
    if (nat->arity >= 0 && argc != nat->arity)
        vm_fatal(vm, "%s expects %d arguments, got %d", nat->name, nat->arity, argc);
    Value r = nat->fn(vm, argc, vm->sp - argc);
    vm->sp -= argc + 1;
    push(vm, r);
}

static void op_call(VM *vm)
{
    int argc = read_u8(vm);
    Value callee = peek(vm, argc);
    if (IS_OBJ_T(callee, O_CLOSURE))
        call_closure(vm, (ObjClosure *)callee.as.o, argc);
    else if (IS_OBJ_T(callee, O_NATIVE))
        call_native(vm, (ObjNative *)callee.as.o, argc);
    else
        vm_fatal(vm, "cannot call a %s", type_name(callee));
}

static void op_closure(VM *vm)
{
    ObjFunc *fn = (ObjFunc *)read_const(vm).as.o;
    ObjClosure *cl = closure_new(vm, fn);
    for (int i = 0; i < cl->nupv; i++) {
        uint8_t is_local = read_u8(vm);
        uint8_t idx = read_u8(vm);
        cl->upv[i] = is_local ? vm->fr->slots[idx] : vm->fr->cl->upv[idx];
    }
    push(vm, v_obj(cl));
}

static void op_return(VM *vm)
{
    Value r = pop(vm);
    vm->sp = vm->fr->slots;
    vm->nframes--;
    if (vm->nframes == 0) {
        vm->halt = true;
        vm->result = r;
        return;
    }
    vm->fr = &vm->frames[vm->nframes - 1];
    vm->ip = vm->fr->ip;
    push(vm, r);
}

/* Dispatch table: one handler function per opcode. */
static const OpHandler handlers[OP_COUNT] = {
    [OP_CONST] = op_const,
    [OP_NIL] = op_nil,
    [OP_TRUE] = op_true,
    [OP_FALSE] = op_false,
    [OP_POP] = op_pop,
    [OP_GET_LOCAL] = op_get_local,
    [OP_SET_LOCAL] = op_set_local,
    [OP_GET_UPV] = op_get_upv,
    [OP_GET_GLOBAL] = op_get_global,
    [OP_SET_GLOBAL] = op_set_global,
    [OP_DEF_GLOBAL] = op_def_global,
    [OP_NEW_TABLE] = op_new_table,
    [OP_APPEND] = op_append,
    [OP_INIT_FIELD] = op_init_field,
    [OP_GET_INDEX] = op_get_index,
    [OP_SET_INDEX] = op_set_index,
    [OP_ADD] = op_add,
    [OP_SUB] = op_sub,
    [OP_MUL] = op_mul,
    [OP_DIV] = op_div,
    [OP_MOD] = op_mod,
    [OP_NEG] = op_neg,
    [OP_NOT] = op_not,
    [OP_CONCAT] = op_concat,
    [OP_EQ] = op_eq,
    [OP_NE] = op_ne,
    [OP_LT] = op_lt,
    [OP_LE] = op_le,
    [OP_GT] = op_gt,
    [OP_GE] = op_ge,
    [OP_JUMP] = op_jump,
    [OP_JUMP_FALSE] = op_jump_false,
    [OP_AND_JUMP] = op_and_jump,
    [OP_OR_JUMP] = op_or_jump,
    [OP_LOOP] = op_loop,
    [OP_CALL] = op_call,
    [OP_CLOSURE] = op_closure,
    [OP_RETURN] = op_return,
    [OP_INC_LOCAL] = op_inc_local,
};

static void run(VM *vm)
{
    while (!vm->halt) {
        uint8_t op = *vm->ip++;
        handlers[op](vm);
    }
}

/* ---- natives ------------------------------------------------------------ */

static int64_t arg_int(VM *vm, Value v, const char *fn)
{
    if (v.type != V_INT)
        vm_fatal(vm, "%s: expected int, got %s", fn, type_name(v));
    return v.as.i;
}

static ObjString *arg_str(VM *vm, Value v, const char *fn)
{
    if (!IS_OBJ_T(v, O_STRING))
        vm_fatal(vm, "%s: expected string, got %s", fn, type_name(v));
    return AS_STR(v);
}

static ObjTable *arg_table(VM *vm, Value v, const char *fn)
{
    if (!IS_OBJ_T(v, O_TABLE))
        vm_fatal(vm, "%s: expected table, got %s", fn, type_name(v));
    return AS_TABLE(v);
}

static Value nat_len(VM *vm, int argc, Value *a)
{
    if (IS_OBJ_T(a[0], O_STRING))
        return v_int(AS_STR(a[0])->len);
    return v_int(arg_table(vm, a[0], "len")->count);
}

static Value nat_str(VM *vm, int argc, Value *a) { return v_obj(to_string(vm, a[0])); }

static Value nat_chr(VM *vm, int argc, Value *a)
{
    char c = (char)(arg_int(vm, a[0], "chr") & 0xff);
    return v_obj(str_new(vm, &c, 1));
}

static Value nat_ord(VM *vm, int argc, Value *a)
{
    ObjString *s = arg_str(vm, a[0], "ord");
    int64_t i = arg_int(vm, a[1], "ord");
    if (i < 0 || i >= (int64_t)s->len)
        vm_fatal(vm, "ord: index out of range");
    return v_int((uint8_t)s->chars[i]);
}

static Value nat_substr(VM *vm, int argc, Value *a)
{
    ObjString *s = arg_str(vm, a[0], "substr");
    int64_t start = arg_int(vm, a[1], "substr");
    int64_t n = arg_int(vm, a[2], "substr");
    if (start < 0)
        start = 0;
    if (start > (int64_t)s->len)
        start = s->len;
    if (n < 0)
        n = 0;
    if (start + n > (int64_t)s->len)
        n = s->len - start;
    return v_obj(str_new(vm, s->chars + start, (size_t)n));
}

static Value nat_keys(VM *vm, int argc, Value *a)
{
    ObjTable *t = arg_table(vm, a[0], "keys");
    ObjTable *r = table_new(vm);
    push(vm, v_obj(r)); /* protect from the collector */
    int64_t n = 0;
    for (uint32_t i = 0; i < t->cap; i++)
        if (t->ent[i].key.type != V_NIL)
            table_set(vm, r, v_int(n++), t->ent[i].key);
    pop(vm);
    return v_obj(r);
}

static Value nat_has(VM *vm, int argc, Value *a)
{
    Value v;
    ObjTable *t = arg_table(vm, a[0], "has");
    if (!value_hashable(a[1]))
        return v_bool(false);
    return v_bool(table_get(t, a[1], &v));
}

static Value nat_remove(VM *vm, int argc, Value *a)
{
    ObjTable *t = arg_table(vm, a[0], "remove");
    if (!value_hashable(a[1]))
        return v_bool(false);
    return v_bool(table_delete(t, a[1]));
}

static Value nat_emit(VM *vm, int argc, Value *a)
{
    for (int i = 0; i < argc; i++)
        vm_emit_value(vm, a[i]);
    return v_nil();
}

static Value nat_assert(VM *vm, int argc, Value *a)
{
    if (!truthy(a[0])) {
        const char *msg = IS_OBJ_T(a[1], O_STRING) ? AS_STR(a[1])->chars : "?";
        vm_fatal(vm, "script assertion failed: %s", msg);
    }
    return v_nil();
}

static Value nat_min(VM *vm, int argc, Value *a)
{
    int64_t x = arg_int(vm, a[0], "min"), y = arg_int(vm, a[1], "min");
    return v_int(x < y ? x : y);
}

static Value nat_max(VM *vm, int argc, Value *a)
{
    int64_t x = arg_int(vm, a[0], "max"), y = arg_int(vm, a[1], "max");
    return v_int(x > y ? x : y);
}

static Value nat_strhash(VM *vm, int argc, Value *a)
{
    ObjString *s = arg_str(vm, a[0], "strhash");
    return v_int(hash_bytes(s->chars, s->len));
}

static void define_native(VM *vm, const char *name, NativeFn fn, int arity)
{
    Value key = v_obj(str_new(vm, name, strlen(name)));
    push(vm, key);
    push(vm, v_obj(native_new(vm, fn, arity, name)));
    table_set(vm, vm->globals, key, peek(vm, 0));
    vm->sp -= 2;
}

/* ---- public interface -------------------------------------------------- */

void vm_emit_value(VM *vm, Value v)
{
    uint64_t h;
    switch (v.type) {
    case V_NIL: h = 0x6e696c; break;
    case V_BOOL: h = v.as.b ? 0x7472 : 0x6661; break;
    case V_INT: h = (uint64_t)v.as.i; break;
    default:
        if (v.as.o->type == O_STRING)
            h = hash_bytes(AS_STR(v)->chars, AS_STR(v)->len) ^ ((uint64_t)AS_STR(v)->len << 32);
        else if (v.as.o->type == O_TABLE)
            h = 0x7461626c65ULL + AS_TABLE(v)->count;
        else
            h = 0x666e;
    }
    vm->checksum = (vm->checksum ^ h) * 0x100000001b3ULL + 0x9e3779b97f4a7c15ULL;
    vm->checksum ^= vm->checksum >> 29;
    vm->nemit++;
}

void vm_init(VM *vm)
{
    vm->sp = vm->stack;
    vm->nframes = 0;
    vm->fr = NULL;
    vm->ip = NULL;
    vm->halt = false;
    vm->result = v_nil();
    vm->objects = NULL;
    vm->bytes = 0;
    vm->next_gc = 1u << 20;
    vm->gc_enabled = false;
    vm->strings.slot = NULL;
    vm->strings.cap = vm->strings.count = vm->strings.used = 0;
    vm->gray = NULL;
    vm->ngray = vm->graycap = 0;
    vm->checksum = 0;
    vm->nemit = vm->gc_runs = vm->calls = 0;
    vm->globals = table_new(vm);

    define_native(vm, "len", nat_len, 1);
    define_native(vm, "str", nat_str, 1);
    define_native(vm, "chr", nat_chr, 1);
    define_native(vm, "ord", nat_ord, 2);
    define_native(vm, "substr", nat_substr, 3);
    define_native(vm, "keys", nat_keys, 1);
    define_native(vm, "has", nat_has, 2);
    define_native(vm, "remove", nat_remove, 2);
    define_native(vm, "emit", nat_emit, -1);
    define_native(vm, "assert", nat_assert, 2);
    define_native(vm, "min", nat_min, 2);
    define_native(vm, "max", nat_max, 2);
    define_native(vm, "strhash", nat_strhash, 1);
    vm->gc_enabled = true;
}

void vm_free(VM *vm)
{
    vm->globals = NULL;
    heap_free_all(vm);
}

void vm_set_global_int(VM *vm, const char *name, int64_t v)
{
    Value key = v_obj(str_new(vm, name, strlen(name)));
    push(vm, key);
    table_set(vm, vm->globals, key, v_int(v));
    pop(vm);
}

bool vm_run_script(VM *vm, const char *name, const char *src, Value *result)
{
    ObjFunc *fn = compile_source(vm, src, name);
    if (!fn)
        return false;
    push(vm, v_obj(fn));
    ObjClosure *cl = closure_new(vm, fn);
    vm->sp[-1] = v_obj(cl);
    Frame *f = &vm->frames[vm->nframes++];
    f->cl = cl;
    f->ip = fn->code;
    f->slots = vm->sp - 1;
    vm->fr = f;
    vm->ip = f->ip;
    vm->halt = false;
    run(vm);
    *result = vm->result;
    return true;
}
