// Tests of MemoryCounters: what is counted, live/peak tracking, threads.
#include "TestUtil.h"

#include <thread>

using namespace tcc;
using namespace tcc::test;

TEST_CASE("counters start at zero and format a readable table", "[counters]") {
  MemoryCounters c;
  CounterSnapshot s = c.snapshot();
  CHECK(s.bytesAllocated == 0);
  CHECK(s.copies == 0);
  CHECK(s.peakManagedBytes == 0);
  c.recordCopy(3 << 20);
  c.recordCopyAvoided(1024);
  c.recordCall();
  std::string table = c.format();
  INFO(table);
  CHECK(table.find("copied") != std::string::npos);
  CHECK(table.find("3.0 MiB") != std::string::npos);
  CHECK(table.find("1 copies, 1.0 KiB (1024 B) saved") != std::string::npos);
  CHECK(table.find("calls            1") != std::string::npos);
}

TEST_CASE("managed buffers raise live and peak bytes and frees lower live",
          "[counters]") {
  auto c = std::make_shared<MemoryCounters>();
  {
    auto a = Buffer::allocateManaged(hostDevice(), 100, c).value();
    {
      auto b = Buffer::allocateManaged(hostDevice(), 50, c).value();
      CHECK(c->snapshot().liveManagedBytes == 150);
      CHECK(b->isManaged());
    }
    CHECK(c->snapshot().liveManagedBytes == 100);
    CHECK(c->snapshot().peakManagedBytes == 150);
    CHECK(c->snapshot().allocations == 2);
    CHECK(c->snapshot().bytesAllocated == 150);
  }
  CHECK(c->snapshot().liveManagedBytes == 0);
  CHECK(c->snapshot().peakManagedBytes == 150);
  // User-space allocations count nothing.
  auto user = Buffer::allocate(hostDevice(), 64).value();
  CHECK_FALSE(user->isManaged());
  CHECK(c->snapshot().allocations == 2);
}

TEST_CASE("reset zeroes tallies but keeps live bytes", "[counters]") {
  auto c = std::make_shared<MemoryCounters>();
  auto a = Buffer::allocateManaged(hostDevice(), 40, c).value();
  c->recordCopy(8);
  c->reset();
  CounterSnapshot s = c->snapshot();
  CHECK(s.bytesCopied == 0);
  CHECK(s.allocations == 0);
  CHECK(s.liveManagedBytes == 40);
  CHECK(s.peakManagedBytes == 40);
  a.reset();
  CHECK(c->snapshot().liveManagedBytes == 0);
}

TEST_CASE("temporaries are managed allocations live until freed, and call "
          "footprints raise the call peaks",
          "[counters]") {
  auto runtime = std::make_shared<MemoryCounters>();
  MemoryCounters function(runtime);
  function.recordManagedAllocation(100);
  function.recordTemporaries(2, 300);
  function.recordCallFootprint(400, 500);
  function.recordTemporariesFreed(300);
  function.recordCallFootprint(50, 700);
  for (const CounterSnapshot &s : {function.snapshot(), runtime->snapshot()}) {
    CHECK(s.allocations == 3);
    CHECK(s.bytesAllocated == 400);
    CHECK(s.temporaries == 2);
    CHECK(s.bytesTemporaries == 300);
    CHECK(s.liveManagedBytes == 100);
    CHECK(s.peakManagedBytes == 400);
    // Each peak is the largest of its own values over the calls.
    CHECK(s.peakCallBytes == 400);
    CHECK(s.peakCallBytesWithoutInPlace == 700);
  }
  std::string table = function.format();
  INFO(table);
  CHECK(table.find("temporaries      300 B in 2 buffers of compiled code\n") !=
        std::string::npos);
  CHECK(table.find("managed peak     400 B\n") != std::string::npos);
  CHECK(table.find("call peak        400 B as run, 700 B without in-place\n") !=
        std::string::npos);
  function.reset();
  CounterSnapshot s = function.snapshot();
  CHECK(s.temporaries == 0);
  CHECK(s.bytesTemporaries == 0);
  CHECK(s.peakCallBytes == 0);
  CHECK(s.peakCallBytesWithoutInPlace == 0);
  CHECK(s.peakManagedBytes == 100);
  // The parent keeps its own tallies.
  CHECK(runtime->snapshot().peakCallBytesWithoutInPlace == 700);
}

TEST_CASE("counters are exact under concurrent updates", "[counters]") {
  MemoryCounters c;
  auto work = [&] {
    for (int i = 0; i < 100000; ++i) {
      c.recordCopy(2);
      c.recordManagedAllocation(1);
      c.recordManagedFree(1);
    }
  };
  std::thread t1(work), t2(work);
  t1.join();
  t2.join();
  CounterSnapshot s = c.snapshot();
  CHECK(s.copies == 200000);
  CHECK(s.bytesCopied == 400000);
  CHECK(s.allocations == 200000);
  CHECK(s.liveManagedBytes == 0);
  CHECK(s.peakManagedBytes >= 1);
  CHECK(s.peakManagedBytes <= 2);
}

TEST_CASE("copyBytes moves bytes between devices and counts one copy",
          "[counters]") {
  FakeDevice fake;
  MemoryCounters c;
  auto host = Array::fromVector<int32_t>({1, 2, 3, 4}, {4}).value();
  auto dev = Buffer::allocate(fake, 16).value();
  REQUIRE_OK(copyBytes(*dev, 0, *host.buffer(), 0, 16, &c));
  CHECK(fake.uploads == 1);
  auto back = Array::zeros(DType::I32, {4}).value();
  REQUIRE_OK(copyBytes(*back.buffer(), 0, *dev, 0, 16, &c));
  CHECK(fake.downloads == 1);
  CHECK(back.bitwiseEqual(host));
  CHECK(c.snapshot().copies == 2);
  CHECK(c.snapshot().bytesCopied == 32);
  CHECK(copyBytes(*dev, 8, *host.buffer(), 0, 16, &c).code() ==
        ErrorCode::InvalidArgument);
  // Arrays built by the user count nothing anywhere.
  SharedStore store;
  auto a = Array::full(DType::F32, {1000}, 1.0).value();
  auto b = a.copy().value();
  CHECK(store.counters().snapshot().allocations == 0);
  CHECK(store.counters().snapshot().bytesCopied == 0);
}
