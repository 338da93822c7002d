// Copy, move and release semantics of gpu::Handle, with a counting fake object.
#include <gtest/gtest.h>

#include "gpu/handle.h"

namespace refract::gpu {
namespace {

struct FakeObject {
  int references = 1;  // a created object starts with the creator's reference
};

struct FakeTraits {
  using Object = FakeObject*;
  static void AddRef(Object object) { ++object->references; }
  static void Release(Object object) { --object->references; }
};

using FakeHandle = Handle<FakeTraits>;

TEST(GpuHandle, AdoptTakesOverTheReferenceAndReleasesItOnce) {
  FakeObject object;
  {
    FakeHandle handle = FakeHandle::Adopt(&object);
    EXPECT_TRUE(handle);
    EXPECT_EQ(handle.get(), &object);
    EXPECT_EQ(object.references, 1);
  }
  EXPECT_EQ(object.references, 0);
}

TEST(GpuHandle, CopyAddsAReferenceAndEachCopyReleasesOne) {
  FakeObject object;
  {
    FakeHandle first = FakeHandle::Adopt(&object);
    {
      FakeHandle second = first;
      EXPECT_EQ(object.references, 2);
      EXPECT_EQ(second.get(), first.get());
    }
    EXPECT_EQ(object.references, 1);
  }
  EXPECT_EQ(object.references, 0);
}

TEST(GpuHandle, MoveStealsWithoutTouchingTheCount) {
  FakeObject object;
  FakeHandle first = FakeHandle::Adopt(&object);
  FakeHandle second = std::move(first);
  EXPECT_FALSE(first);  // NOLINT(bugprone-use-after-move): the moved-from state is the contract
  EXPECT_EQ(second.get(), &object);
  EXPECT_EQ(object.references, 1);
  second.Reset();
  EXPECT_FALSE(second);
  EXPECT_EQ(object.references, 0);
}

TEST(GpuHandle, AssignmentReleasesTheOldObject) {
  FakeObject a, b, c;
  FakeHandle handle = FakeHandle::Adopt(&a);
  FakeHandle other = FakeHandle::Adopt(&b);
  handle = other;  // copy-assign: a released, b gains one
  EXPECT_EQ(a.references, 0);
  EXPECT_EQ(b.references, 2);
  handle = FakeHandle::Adopt(&c);  // move-assign: b loses one, c keeps its creator's
  EXPECT_EQ(b.references, 1);
  EXPECT_EQ(c.references, 1);
  FakeHandle& alias = handle;
  handle = alias;  // self-assignment keeps the reference
  EXPECT_EQ(c.references, 1);
  EXPECT_EQ(handle.get(), &c);
}

TEST(GpuHandle, EmptyHandleReleasesNothing) {
  FakeHandle empty;
  FakeHandle copy = empty;
  EXPECT_FALSE(copy);
  copy.Reset();
  EXPECT_EQ(copy.get(), nullptr);
}

}  // namespace
}  // namespace refract::gpu
