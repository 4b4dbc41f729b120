/* vm.h - shared declarations for the bytecode_vm workload.
 *
 * A small dynamically typed scripting language ("bs") is compiled by a
 * single-pass compiler to bytecode for a stack VM.  This header holds the
 * value representation, the heap object layouts, the opcode list and the
 * interfaces between the lexer, compiler, object heap / GC and the VM. */
#ifndef BVM_VM_H
#define BVM_VM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- values ------------------------------------------------------------ */
typedef enum { V_NIL, V_BOOL, V_INT, V_OBJ } ValType;

typedef struct Obj Obj;
typedef struct {
    ValType type;
    union {
        bool b;
        int64_t i;
        Obj *o;
    } as;
} Value;

typedef enum { O_STRING, O_TABLE, O_FUNC, O_CLOSURE, O_NATIVE } ObjType;

struct Obj {
    ObjType type;
    bool marked;
    Obj *next;
};

typedef struct {
    Obj h;
    uint32_t len;
    uint32_t hash;
    char chars[];
} ObjString;

typedef struct {
    Value key;
    Value val;
} Entry;

/* Open-addressing hash table; a slot with key nil and value true is a
 * tombstone. */
typedef struct {
    Obj h;
    uint32_t count; /* live entries */
    uint32_t used;  /* live entries + tombstones */
    uint32_t cap;   /* power of two or 0 */
    Entry *ent;
} ObjTable;

typedef struct {
    Obj h;
    int arity;
    int nupv;
    int len, cap;
    uint8_t *code;
    int nk, kcap;
    Value *k;
    ObjString *name;
} ObjFunc;

/* Closures capture enclosing variables by value when created. */
typedef struct {
    Obj h;
    ObjFunc *fn;
    int nupv;
    Value upv[];
} ObjClosure;

struct VM;
typedef Value (*NativeFn)(struct VM *vm, int argc, Value *args);

typedef struct {
    Obj h;
    NativeFn fn;
    int arity; /* -1: variadic */
    const char *name;
} ObjNative;

#define IS_OBJ_T(v, t) ((v).type == V_OBJ && (v).as.o->type == (t))
#define AS_STR(v) ((ObjString *)(v).as.o)
#define AS_TABLE(v) ((ObjTable *)(v).as.o)

static inline Value v_nil(void) { Value v; v.type = V_NIL; v.as.i = 0; return v; }
static inline Value v_bool(bool b) { Value v; v.type = V_BOOL; v.as.i = 0; v.as.b = b; return v; }
static inline Value v_int(int64_t i) { Value v; v.type = V_INT; v.as.i = i; return v; }
static inline Value v_obj(void *o) { Value v; v.type = V_OBJ; v.as.o = (Obj *)o; return v; }

/* ---- opcodes ----------------------------------------------------------- */
#define OPCODE_LIST(X)                                                       \
    X(CONST) X(NIL) X(TRUE) X(FALSE) X(POP)                                  \
    X(GET_LOCAL) X(SET_LOCAL) X(GET_UPV) X(GET_GLOBAL) X(SET_GLOBAL)         \
    X(DEF_GLOBAL) X(NEW_TABLE) X(APPEND) X(INIT_FIELD) X(GET_INDEX)          \
    X(SET_INDEX) X(ADD) X(SUB) X(MUL) X(DIV) X(MOD) X(NEG) X(NOT)           \
    X(CONCAT) X(EQ) X(NE) X(LT) X(LE) X(GT) X(GE) X(JUMP) X(JUMP_FALSE)     \
    X(AND_JUMP) X(OR_JUMP) X(LOOP) X(CALL) X(CLOSURE) X(RETURN)             \
    X(INC_LOCAL)

typedef enum {
#define X(n) OP_##n,
    OPCODE_LIST(X)
#undef X
    OP_COUNT
} OpCode;

/* ---- VM state ---------------------------------------------------------- */
#define STACK_MAX 32768
#define FRAMES_MAX 2048

typedef struct {
    ObjClosure *cl;
    uint8_t *ip;
    Value *slots;
} Frame;

typedef struct {
    ObjString **slot;
    uint32_t cap, count, used;
} StrSet;

typedef struct VM {
    Value stack[STACK_MAX];
    Value *sp;
    Frame frames[FRAMES_MAX];
    int nframes;
    Frame *fr;     /* current frame */
    uint8_t *ip;   /* current instruction pointer */
    bool halt;
    Value result;

    ObjTable *globals;
    StrSet strings;
    Obj *objects;
    size_t bytes, next_gc;
    bool gc_enabled;
    Obj **gray;
    size_t ngray, graycap;

    uint64_t checksum;
    uint64_t nemit;
    uint64_t gc_runs;
    uint64_t calls;
} VM;

/* object.c */
void *vm_realloc(VM *vm, void *p, size_t old, size_t nsize);
ObjString *str_new(VM *vm, const char *s, size_t len);
ObjString *str_concat(VM *vm, ObjString *a, ObjString *b);
uint32_t hash_bytes(const char *s, size_t len);
ObjTable *table_new(VM *vm);
bool table_get(ObjTable *t, Value key, Value *out);
void table_set(VM *vm, ObjTable *t, Value key, Value val);
bool table_delete(ObjTable *t, Value key);
bool value_hashable(Value v);
bool values_equal(Value a, Value b);
ObjFunc *func_new(VM *vm);
ObjClosure *closure_new(VM *vm, ObjFunc *fn);
ObjNative *native_new(VM *vm, NativeFn fn, int arity, const char *name);
void gc_collect(VM *vm);
void heap_free_all(VM *vm);

/* compiler.c: returns NULL and prints a message on a compile error */
ObjFunc *compile_source(VM *vm, const char *src, const char *name);

/* vm.c */
void vm_init(VM *vm);
void vm_free(VM *vm);
void vm_set_global_int(VM *vm, const char *name, int64_t v);
bool vm_run_script(VM *vm, const char *name, const char *src, Value *result);
void vm_emit_value(VM *vm, Value v);
void vm_fatal(VM *vm, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));

/* scripts.c */
typedef struct {
    const char *name;
    const char *src;
    int64_t n_test, n_train, n_ref;
} Script;
extern const Script bvm_scripts[];
extern const int bvm_nscripts;

#endif
